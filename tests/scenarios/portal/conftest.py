"""One portal and one Chromium pool for the package; the portal is reset before each test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest_asyncio
from playwright.async_api import BrowserContext

from core.browser import BrowserPool
from portal.server import RunningPortal, running_portal
from scenarios.portal import PortalSession
from tests.portal.helpers import TestClock
from tests.scenarios.portal.helpers import make_session, reset


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


@pytest_asyncio.fixture(loop_scope="session", autouse=True)
async def _fresh_portal(portal: RunningPortal, clock: TestClock) -> None:
    clock.shift = timedelta()
    await reset(portal.url)


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool) -> AsyncIterator[BrowserContext]:
    async with pool.context() as ctx:
        yield ctx


@pytest_asyncio.fixture(loop_scope="session")
async def session(context: BrowserContext, portal: RunningPortal) -> AsyncIterator[PortalSession]:
    opened = make_session(context, portal)
    yield opened
    await opened.close()
