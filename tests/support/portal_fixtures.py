"""The manual clock and the reference portal on it, for tests that book through the
portal; a test module or conftest imports the fixtures it wants from here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from core.clock import ManualClock
from portal.server import running_portal

__all__ = ["NOW", "clock", "portal_url"]

NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)  # Monday 10:00 in Moscow


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
async def portal_url(clock: ManualClock) -> AsyncIterator[str]:
    async with running_portal(test_api=True, seed=1, clock=clock.now) as portal:
        yield portal.url
