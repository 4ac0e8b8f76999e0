"""Fixtures shared by the end-to-end scenario tests: a manual clock, the reference portal
on that clock with its test API, a browser pool and a sink recording the core's output."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from core.browser import BrowserPool
from core.clock import ManualClock
from portal.server import running_portal
from tests.support.sinks import CollectingSink

NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)  # Monday 10:00 in Moscow


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
async def portal_url(clock: ManualClock) -> AsyncIterator[str]:
    async with running_portal(test_api=True, seed=1, clock=clock.now) as portal:
        yield portal.url


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=3) as opened:
        yield opened


@pytest.fixture
def sink() -> CollectingSink:
    return CollectingSink()
