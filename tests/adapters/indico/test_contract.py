"""The ``BookingSystem`` contract on a real Indico 3.2.9."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.adapters.contract import BookingSystemContract
from tests.adapters.indico.harness import IndicoHarness
from tests.support.indico_server import IndicoServer

__all__ = ["TestIndicoContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TestIndicoContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, indico_server: IndicoServer) -> IndicoHarness:
        return IndicoHarness(indico_server)
