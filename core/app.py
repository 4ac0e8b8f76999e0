"""Builds the core from settings and opened storage: the one place it is wired."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from core.accounts import AccountService
from core.assist.extractor import SlotExtractor
from core.authz import Roles
from core.clock import Clock, SystemClock
from core.collector import SlotCollector
from core.events import EventBus
from core.manager import NLUManager
from core.output import Output, OutputSink, Progress, Receipt
from core.planner import IntentClassifier, ProxyPlanner
from core.run_control import RunControl
from core.runner import ScenarioRunner
from core.scenario import BaseScenario, StepScenario
from core.sessions import ChatSessions
from core.settings import Settings
from core.site.catalogue import Catalogues
from core.store import Direction, Store
from core.user_settings import UserSettings

__all__ = ["CoreServices", "RecordingSink", "build_core"]


@dataclass(frozen=True, slots=True)
class CoreServices:
    """What a view opens the core for: the manager, and the services its handlers get as
    keyword data besides it."""

    manager: NLUManager
    accounts: AccountService | None = None  # None: /login says personal logins are off


class RecordingSink:
    """Stores what the bot says in the conversation, then passes it to the view."""

    def __init__(self, inner: OutputSink, storage: Store) -> None:
        self._inner = inner
        self._storage = storage

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if not isinstance(output, Progress):
            await self._storage.conversations.append(
                chat_id=output.chat_id,
                direction=Direction.OUT,
                text=output.text,
                run_id=output.run_id,
            )
        await self._inner.deliver(output, receipt)


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
) -> AsyncIterator[NLUManager]:
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
    turns = ChatSessions(storage)
    control = RunControl(
        storage=storage, runner=runner, collector=collector, sessions=turns, roles=roles,
        sink=recording, bus=bus, clock=clock, default_timezone=settings.timezone,
    )  # fmt: skip
    manager = NLUManager(
        storage=storage, scenarios=scenarios,
        planner=ProxyPlanner(scenarios, classifier=classifier), runner=runner,
        collector=collector, control=control, turns=turns,
        user_settings=UserSettings(storage.users, default_timezone=settings.timezone),
        catalogues=catalogues, sink=recording, bus=bus, clock=clock,
        default_timezone=settings.timezone, roles=roles, extractor=extractor,
    )  # fmt: skip
    async with manager:
        yield manager
