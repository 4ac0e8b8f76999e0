"""Fixtures shared by the end-to-end scenario tests: a manual clock, the reference portal
on that clock with its test API, a browser pool and a sink recording the core's output."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.browser import BrowserPool
from tests.support.brain_core import events, make_core  # noqa: F401 (fixtures)
from tests.support.portal_fixtures import clock, portal_url  # noqa: F401 (fixtures)
from tests.support.sinks import CollectingSink


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=3) as opened:
        yield opened


@pytest.fixture
def sink() -> CollectingSink:
    return CollectingSink()
