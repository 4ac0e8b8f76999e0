"""One portal and one Chromium pool for the package; every browser test gets a reset
portal; ``session`` is the profile adapter's on ``profiles/refportal.yaml``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest_asyncio
from playwright.async_api import BrowserContext

from adapters.profile import ProfileSession
from core.browser import BrowserPool
from portal.server import RunningPortal, running_portal
from tests.adapters.refportal.helpers import make_session, reset
from tests.portal.helpers import TestClock


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def clock() -> TestClock:
    return TestClock()


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def portal(clock: TestClock) -> AsyncIterator[RunningPortal]:
    async with running_portal(seed=1, test_api=True, clock=clock) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=4) as opened:
        yield opened


@pytest_asyncio.fixture(loop_scope="session")
async def fresh_portal(portal: RunningPortal, clock: TestClock) -> RunningPortal:
    """The shared portal reseeded, sessions and quirks cleared, clock back at the start."""
    clock.shift = timedelta()
    await reset(portal.url)
    return portal


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool, fresh_portal: RunningPortal) -> AsyncIterator[BrowserContext]:
    """A fresh browser context on a freshly reset portal."""
    async with pool.context() as ctx:
        yield ctx


@pytest_asyncio.fixture(loop_scope="session")
async def session(context: BrowserContext, portal: RunningPortal) -> AsyncIterator[ProfileSession]:
    opened = make_session(context, portal)
    yield opened
    await opened.close()
