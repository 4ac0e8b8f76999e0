"""E2E helpers: the whole bot (real dispatcher, real ChatDispatcher, real storage) polling
the fake Telegram server, and small real scenarios for it to run."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, SecretStr

from app.engine import build_core
from app.run import poll
from bot.dialogues import dialogue_storage
from bot.factory import BotApp, open_bot_app
from bot.outbox import FloodLimits
from core.browser import BrowserPool
from core.clock import Clock, ManualClock
from core.commands import Command
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.metrics import Metrics
from core.nlu import Decision, Intent
from core.output import Option, OutputSink
from core.pause import QuestionSpec
from core.scenario import (
    BaseScenario,
    InstantScenario,
    SlotContext,
    Step,
    StepContext,
    StepScenario,
)
from core.settings import Settings, load_settings
from core.site.catalogue import Catalogues
from core.site.models import Catalogue
from core.texts import Text
from core.vault import CredentialVault
from core.views import CoreServices, RecordingSink
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.port import BookingSystem
from scenarios.booking.schedules import ScheduleBook
from scenarios.booking.schedules.scenarios import CancelSchedule, ListSchedules, ScheduleBooking
from scenarios.booking.vocabulary import BookingIntent
from scenarios.help import DeclineScenario
from storage import Storage
from storage.errors import translate_errors
from tests.fakes.telegram import FakeTelegram, RateLimits
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.scenarios import ShowsBooking, TrackedScenario, with_help

__all__ = [
    "CoreFactory",
    "FAST_LIMITS",
    "FAST_SERVER_LIMITS",
    "ClubScenario",
    "EchoScenario",
    "product_bot",
    "running_bot",
    "schedules_core",
    "settings_for",
]

# Ten times Telegram's limits on both sides, so e2e tests stay quick but throttled.
FAST_SERVER_LIMITS = RateLimits(
    per_chat_burst=3, per_chat_rate=10.0, global_burst=300, global_rate=300.0
)
FAST_LIMITS = FloodLimits(per_chat_rate=9.0, per_chat_burst=2, global_rate=280.0, global_burst=100)

CLUBS = [Option(id="chess", label="Шахматы"), Option(id="drama", label="Театр")]


class ClubSlots(BaseModel):
    club: str | None = None


class ClubScenario(ShowsBooking, StepScenario[ClubSlots]):
    """«забронируй аудиторию» → asks one required slot (the club), then runs two steps."""

    name = "book_rooms"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.BOOK_ROOMS})
    slot_model = ClubSlots
    title_text = Text("Бронирование", "Booking")

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None  # set: the second step waits for it

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        return {}

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [] if slots.get("club") else ["club"]

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        text = "Для какого клуба?" if ctx.lang == "ru" else "Which club is it for?"
        return QuestionSpec(key=slot, text=text, options=CLUBS, allow_free_text=True)

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        if option_id is not None:
            return next(o.label for o in CLUBS if o.id == option_id)
        return (text or "").strip()

    async def _find(self, ctx: StepContext[Any]) -> FoundRoom:
        return FoundRoom(room="405")

    async def _book(self, ctx: StepContext[Any]) -> None:
        if self.gate is not None:
            await self.gate.wait()

    def steps(self) -> Sequence[Step]:
        return [
            Step("find", Text("Поиск аудитории", "Finding a room"), self._find),
            Step("book", Text("Бронирование", "Booking"), self._book),
        ]

    def summary(self, ctx: StepContext[Any]) -> str:
        return f"Забронирована 405 для клуба «{ctx.slots.club}»"


class FoundRoom(BaseModel):
    room: str


class EchoScenario(InstantScenario):
    """Takes every command nobody else wants and echoes it (ordering and load tests)."""

    name = "echo"
    intents: ClassVar[frozenset[Intent]] = frozenset({Intent.UNKNOWN})

    def score(self, decision: Decision) -> float:
        return 0.6

    async def respond(self, command: Command, decision: Decision) -> str:
        return f"echo: {command.text}"


# A test's core: opened on the test's storage, the way ``app/`` opens the product's.
CoreFactory = Callable[
    [Settings, Storage, OutputSink], AbstractAsyncContextManager["ChatDispatcher | CoreServices"]
]


def default_scenarios() -> list[BaseScenario]:
    return with_help(ClubScenario())


def settings_for(
    tg: FakeTelegram, *, allowed: Sequence[int] = (), allow_all: bool = False, **extra: Any
) -> Settings:
    return load_settings(
        telegram={
            "token": tg.token,
            "api_base": tg.api_base,
            "allowed_users": list(allowed),
            "allow_all": allow_all,
        },
        **extra,
    )


@asynccontextmanager
async def running_bot(
    tg: FakeTelegram,
    storage: Storage,
    *,
    scenarios: Sequence[BaseScenario] | None = None,
    allowed: Sequence[int] = (),
    allow_all: bool = True,
    limits: FloodLimits | None = FAST_LIMITS,
    progress_interval: float = 0.2,
    polling: bool = True,
    core: CoreFactory | None = None,
    clock: Clock | None = None,
    metrics: Metrics | None = None,
    catalogue: Catalogue = REFPORTAL_CATALOGUE,
    scenarios_for: Callable[[Storage, OutputSink, EventBus], Sequence[BaseScenario]] | None = None,
) -> AsyncIterator[BotApp]:
    """The bot as ``clubman run`` builds it, but on the given storage and scenarios
    (and ``clock``, e.g. a manual one the portal also runs on; ``metrics`` counting, as
    ``app.run.serve`` wires them; ``catalogue`` the site's, the reference portal's by
    default). ``scenarios_for`` builds the scenarios from what the core is opened with
    (the view's sink and the event bus), as ``app.compose`` does."""
    chosen = list(scenarios) if scenarios is not None else default_scenarios()

    def real_core(
        settings: Settings, opened: Storage, sink: OutputSink
    ) -> AbstractAsyncContextManager[ChatDispatcher]:
        bus = EventBus(opened.events)
        if metrics is not None:
            bus.subscribe(metrics.observe)
        return build_core(
            settings,
            opened,
            sink,
            catalogues=Catalogues.fixed(catalogue),
            scenarios=scenarios_for(opened, sink, bus) if scenarios_for else chosen,
            clock=clock,
            bus=bus,
        )

    settings = settings_for(tg, allowed=allowed, allow_all=allow_all and not allowed)
    opens = core or real_core
    dialogues = dialogue_storage(
        storage.redis, ttl_seconds=settings.runner.waiting_ttl_seconds, translate=translate_errors
    )
    async with open_bot_app(
        settings,
        core=lambda sink: opens(settings, storage, sink),
        claims=storage.claims,
        dialogues=dialogues,
        limits=limits,
        progress_interval=progress_interval,
        metrics=metrics,
    ) as app:
        if not polling:
            yield app
            return
        started = asyncio.Event()

        async def _started() -> None:
            started.set()

        app.dispatcher.startup.register(_started)
        task = asyncio.create_task(poll(app, handle_signals=False, polling_timeout=1))
        waiter = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        try:
            yield app
        finally:
            if not task.done():
                await app.dispatcher.stop_polling()
            await task


@asynccontextmanager
async def product_bot(
    tg: FakeTelegram,
    storage: Storage,
    system: BookingSystem,
    *,
    clock: Clock | None = None,
    account: PortalAccount | None = None,
    max_contexts: int = 2,
    polling: bool = True,
    metrics: Metrics | None = None,
    catalogue: Catalogue = REFPORTAL_CATALOGUE,
) -> AsyncIterator[BotApp]:
    """The bot with every product scenario on ``system`` (with ``catalogue``, the
    reference portal's test catalogue by default), booking through the club's account
    (``club``/``club-demo`` by default); its bookings plan their reminders, as
    ``app.compose`` wires them (a scheduler sends them: none here)."""
    account = account or PortalAccount(username="club", password=SecretStr("club-demo"))
    async with BrowserPool(max_contexts=max_contexts) as pool:
        work = PortalWork(
            pool=pool, system=system, account=account, vault=CredentialVault(storage, None)
        )

        def scenarios(opened: Storage, sink: OutputSink, bus: EventBus) -> list[BaseScenario]:
            return product_scenarios(
                opened, work, catalogues=Catalogues.fixed(catalogue),
                sink=RecordingSink(sink, opened), bus=bus, clock=clock,
            )  # fmt: skip

        async with running_bot(
            tg, storage, scenarios_for=scenarios, clock=clock, polling=polling, metrics=metrics,
            catalogue=catalogue,
        ) as running:  # fmt: skip
            yield running


SCHEDULES_NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)  # Monday 10:00 in Moscow


def schedules_core(booker: TrackedScenario | None = None) -> CoreFactory:
    """The schedule scenarios (and the refusal) on the test's storage, booking through
    ``booker``, which records every step it runs: an empty record is nothing booked."""

    def opens(
        settings: Settings, storage: Storage, sink: OutputSink
    ) -> AbstractAsyncContextManager[ChatDispatcher]:
        clock = ManualClock(SCHEDULES_NOW)
        bus = EventBus(storage.events)
        book = ScheduleBook(storage, bus=bus, clock=clock)
        catalogues = Catalogues.fixed(REFPORTAL_CATALOGUE)
        booking = booker or TrackedScenario()  # a fresh one each time, unless watched
        scenarios = [
            *with_help(
                booking,
                ScheduleBooking(catalogues=catalogues, store=book, booking=booking),
                ListSchedules(catalogues=catalogues, store=book),
                CancelSchedule(catalogues=catalogues, store=book),
            ),
            DeclineScenario(),
        ]
        return build_core(
            settings,
            storage,
            sink,
            catalogues=catalogues,
            scenarios=scenarios,
            clock=clock,
            bus=bus,
        )

    return opens
