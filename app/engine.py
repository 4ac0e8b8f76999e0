"""The engine opened on settings and storage: each of the dispatcher's collaborators made
once and handed to the one that needs it (the composition root's part for the engine)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta

from core.assist.extractor import SlotExtractor
from core.authz import Roles
from core.clock import Clock, SystemClock
from core.collector import SlotCollector
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.output import OutputSink
from core.planner import IntentClassifier, ProxyPlanner
from core.run_control import RunControl
from core.runner import ScenarioRunner
from core.scenario import BaseScenario, StepScenario
from core.settings import Settings
from core.site.catalogue import Catalogues
from core.store import Store
from core.turns import ChatTurns
from core.user_settings import UserSettings
from core.views import RecordingSink

__all__ = ["build_core"]


@asynccontextmanager
async def build_core(
    settings: Settings,
    storage: Store,
    sink: OutputSink,
    *,
    scenarios: Sequence[BaseScenario],
    catalogues: Catalogues,
    clock: Clock | None = None,
    classifier: IntentClassifier | None = None,
    extractor: SlotExtractor | None = None,
    bus: EventBus | None = None,
) -> AsyncIterator[ChatDispatcher]:
    """The manager with its runner, resumed runs and expiry loop; stopped on exit. Each
    collaborator is made here, once, and handed to the one that needs it."""
    recording = RecordingSink(sink, storage)
    bus = bus or EventBus(storage.events)
    clock = clock or SystemClock()
    roles = Roles(settings.telegram.admins)
    steps = {s.name: s for s in scenarios if isinstance(s, StepScenario)}
    runner = ScenarioRunner(
        storage=storage, scenarios=steps, bus=bus, sink=recording, clock=clock,
        waiting_ttl=timedelta(seconds=settings.runner.waiting_ttl_seconds),
    )  # fmt: skip
    collector = SlotCollector(
        storage=storage, runner=runner, bus=bus, clock=clock, catalogues=catalogues
    )
    turns = ChatTurns(storage)
    control = RunControl(
        storage=storage, runner=runner, collector=collector, sessions=turns, roles=roles,
        sink=recording, bus=bus, clock=clock, default_timezone=settings.timezone,
    )  # fmt: skip
    manager = ChatDispatcher(
        storage=storage, scenarios=scenarios,
        planner=ProxyPlanner(scenarios, classifier=classifier), runner=runner,
        collector=collector, control=control, turns=turns,
        user_settings=UserSettings(storage.users, default_timezone=settings.timezone),
        catalogues=catalogues, sink=recording, bus=bus, clock=clock,
        default_timezone=settings.timezone, roles=roles, extractor=extractor,
    )  # fmt: skip
    async with manager:
        yield manager
