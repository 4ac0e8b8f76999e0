"""The ``BookingSystem`` contract, unchanged, on a real MRBS 1.12.2 through
``profiles/mrbs.yaml``: a login drawn in place, rooms across and times down with bookings
as spanning cells, a save that leads back to the day, «my bookings» as MRBS's search, and
a booking's page of two-cell rows."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.adapters.contract import BookingSystemContract
from tests.adapters.mrbs.harness import MrbsHarness
from tests.sites.mrbs import MrbsServer

__all__ = ["TestMrbsProfileContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TestMrbsProfileContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, mrbs: MrbsServer) -> MrbsHarness:
        return MrbsHarness(mrbs)
