"""Fixtures for core tests: a manager on real storage with a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime

import pytest

from app.engine import build_core
from core.clock import ManualClock
from core.dispatcher import ChatDispatcher
from core.scenario import BaseScenario
from core.settings import load_settings
from core.site.catalogue import Catalogues
from scenarios.help import HelpScenario, Showcase, UnknownScenario
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink

# Monday 2026-11-23 10:00 in Moscow.
NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)

CoreFactory = Callable[..., AbstractAsyncContextManager[ChatDispatcher]]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
def sink() -> CollectingSink:
    return CollectingSink()


@pytest.fixture
def tracked() -> TrackedScenario:
    return TrackedScenario()


@pytest.fixture
def make_core(storage: Storage, sink: CollectingSink, clock: ManualClock) -> CoreFactory:
    """Build a manager (as a context manager) on the shared storage: calling it twice
    is a restart of the process."""

    def factory(*scenarios: BaseScenario) -> AbstractAsyncContextManager[ChatDispatcher]:
        chosen = list(scenarios) or [HelpScenario(), UnknownScenario()]
        return build_core(
            load_settings(),
            storage,
            sink,
            catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
            scenarios=chosen,
            clock=clock,
        )

    return factory


@pytest.fixture
async def core(make_core: CoreFactory, tracked: TrackedScenario) -> AsyncIterator[ChatDispatcher]:
    showcase = Showcase([tracked])
    helping = [HelpScenario(showcase=showcase), UnknownScenario(showcase=showcase)]
    async with make_core(tracked, *helping) as manager:
        yield manager
