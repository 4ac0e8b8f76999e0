"""The session's MRBS (``tests/conftest.py``) as seeded, and one Chromium pool for the
package."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from core.browser import BrowserPool
from tests.sites.mrbs import MrbsServer


@pytest.fixture
def mrbs(mrbs_server: MrbsServer) -> Iterator[MrbsServer]:
    """The session's MRBS as seeded, at the start of each test and after it."""
    with mrbs_server.seeded_only() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=4) as opened:
        yield opened
