"""One legacy-style site and one Chromium pool for the package; every test that asks for
``fresh_legacy`` gets the site reseeded, sessions and quirks cleared."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import aiohttp
import pytest_asyncio

from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy, running_legacy
from tests.portal.helpers import TestClock


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def clock() -> TestClock:
    return TestClock()


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def legacy(clock: TestClock) -> AsyncIterator[RunningLegacy]:
    async with running_legacy(seed=1, test_api=True, clock=clock) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=4) as opened:
        yield opened


@pytest_asyncio.fixture(loop_scope="session")
async def fresh_legacy(legacy: RunningLegacy, clock: TestClock) -> RunningLegacy:
    clock.shift = timedelta()
    async with aiohttp.ClientSession() as http, http.post(f"{legacy.url}/_test/reset") as got:
        assert got.status == 200, await got.text()
    return legacy
