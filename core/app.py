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
from core.events import EventBus
from core.manager import NLUManager
from core.output import Output, OutputSink, Progress, Receipt
from core.planner import IntentClassifier
from core.scenario import BaseScenario
from core.settings import Settings
from core.site.catalogue import Catalogues
from core.store import Direction, Store

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
    """The manager with its runner, resumed runs and expiry loop; stopped on exit."""
    manager = NLUManager(
        storage=storage,
        scenarios=list(scenarios),
        catalogues=catalogues,
        sink=RecordingSink(sink, storage),
        bus=bus or EventBus(storage.events),
        clock=clock or SystemClock(),
        default_timezone=settings.timezone,
        waiting_ttl=timedelta(seconds=settings.runner.waiting_ttl_seconds),
        classifier=classifier,
        extractor=extractor,
        roles=Roles(settings.telegram.admins),
    )
    async with manager:
        yield manager
