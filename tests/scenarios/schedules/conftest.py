"""A core with the schedule scenarios and a ``BookingScheduler`` on real storage, driven
by a manual clock. Opening it twice on the same storage is a restart; two open at once
are two processes sharing MongoDB and Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

import pytest

from app.engine import build_core
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.output import Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from scenarios.booking.schedules import BookingScheduler, ScheduleBook
from scenarios.booking.schedules.scenarios import CancelSchedule, ListSchedules, ScheduleBooking
from scenarios.booking.settings import SchedulerSettings
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario, with_help
from tests.support.sinks import CollectingSink

CHAT = 100


@dataclass
class System:
    manager: ChatDispatcher
    scheduler: BookingScheduler
    booking: TrackedScenario

    async def say(self, text: str, *, intent: str | None = None) -> None:
        await self.manager.handle(Command(chat_id=CHAT, user_id=CHAT, text=text, intent=intent))

    async def tap(self, question: Question, option_id: str) -> None:
        outcome = await self.manager.answer(
            Answer(
                chat_id=CHAT,
                user_id=CHAT,
                run_id=question.run_id,
                seq=question.seq,
                option_id=option_id,
            )
        )
        assert outcome.accepted, outcome.note


SystemFactory = Callable[..., AbstractAsyncContextManager[System]]


@pytest.fixture
def scheduler_settings() -> SchedulerSettings:
    return SchedulerSettings(first_fire_delay_seconds=0.05)


@pytest.fixture
def make_system(
    storage: Storage,
    sink: CollectingSink,
    clock: ManualClock,
    scheduler_settings: SchedulerSettings,
) -> SystemFactory:
    """``make_system(started=True, owner="p1", booking=None)``: a manager with the
    schedule scenarios; the scheduler's timer runs only when ``started``."""

    @asynccontextmanager
    async def factory(
        *,
        started: bool = True,
        owner: str = "p1",
        booking: TrackedScenario | None = None,
    ) -> AsyncIterator[System]:
        bus = EventBus(storage.events)
        book = ScheduleBook(storage, bus=bus, clock=clock)
        booker = booking or TrackedScenario()
        scenarios = with_help(
            booker,
            ScheduleBooking(
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
                store=book,
                booking=booker,
            ),
            ListSchedules(catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), store=book),
            CancelSchedule(catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), store=book),
        )
        async with build_core(
            load_settings(),
            storage,
            sink,
            catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
            scenarios=scenarios,
            clock=clock,
            bus=bus,
        ) as manager:
            scheduler = BookingScheduler(
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
                storage=storage,
                manager=manager,
                clock=clock,
                settings=scheduler_settings,
                owner_id=owner,
                bus=bus,
            )
            if not started:
                yield System(manager, scheduler, booker)
                await manager.runner.wait_idle()
                return
            async with scheduler:
                yield System(manager, scheduler, booker)
                await manager.runner.wait_idle()

    return factory
