"""The ``BookingSystem`` contract, unchanged, on the legacy-style site through
``profiles/legacy.yaml``: rooms across and times down, bookings as spanning cells,
seconds-since-midnight selects, a search for «my bookings», a native confirm()."""

from __future__ import annotations

import pytest
import pytest_asyncio

from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy
from tests.adapters.contract import BookingSystemContract
from tests.adapters.profile.legacy_harness import LegacyHarness

__all__ = ["TestLegacyProfileContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TestLegacyProfileContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_legacy: RunningLegacy, pool: BrowserPool) -> LegacyHarness:
        return LegacyHarness(fresh_legacy, pool)
