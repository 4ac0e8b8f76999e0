"""The legacy site on the test clock, a guest and the logged-in club (``visitor``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from portal.legacy.server import RunningLegacy, running_legacy
from tests.portal.helpers import TestClock
from tests.portal.legacy.visitor import Visitor


@pytest_asyncio.fixture(loop_scope="session")
async def site(clock: TestClock) -> AsyncIterator[RunningLegacy]:
    async with running_legacy(seed=1, test_api=True, clock=clock) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session")
async def guest(site: RunningLegacy) -> AsyncIterator[Visitor]:
    visitor = Visitor(site.url)
    yield visitor
    await visitor.close()


@pytest_asyncio.fixture(loop_scope="session")
async def club(site: RunningLegacy) -> AsyncIterator[Visitor]:
    visitor = Visitor(site.url)
    assert (await visitor.login("club", "club-demo")).location == "/schedule"
    yield visitor
    await visitor.close()
