"""The ``BookingSystem`` contract on a real Indico 3.2.9 through its web pages, by the
profile adapter with ``profiles/indico.yaml`` (no code of Indico's in the adapter)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.adapters.contract import BookingSystemContract
from tests.adapters.indico.profile_harness import IndicoPagesHarness
from tests.support.indico_server import IndicoServer

__all__ = ["TestIndicoPagesContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TestIndicoPagesContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, indico_server: IndicoServer) -> IndicoPagesHarness:
        indico_server.cancel_all()  # a clean slate: earlier modules' bookings are gone
        return IndicoPagesHarness(indico_server)
