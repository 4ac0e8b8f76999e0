"""One real Indico (``tests/support/indico_server.py``) and one Chromium pool for the package."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from core.browser import BrowserPool
from tests.support.indico_server import IndicoServer, running_indico_server


@pytest.fixture(scope="package")
def indico_server() -> Iterator[IndicoServer]:
    """Indico + PostgreSQL + redis, seeded (``scripts/indico/seed.json``), for the package."""
    with running_indico_server() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=4) as opened:
        yield opened
