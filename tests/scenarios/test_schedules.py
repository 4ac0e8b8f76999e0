"""Recurring bookings end to end: the scheduler fires, the booking scenario books on the
real portal in Chromium (checked through ``/_test/bookings``), with a manual clock that
the portal shares."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

import pytest

from app.engine import build_core
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.output import Done, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.schedules import BookingScheduler
from scenarios.booking.settings import SchedulerSettings
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.portal import portal_bookings, set_quirks
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink

MSK = dt.timezone(dt.timedelta(hours=3))
CHAT = 100
CREATE = "каждый четверг бронируй 405 в главном корпусе с 18 до 20"
WAIT = 90.0


@dataclass
class Bot:
    manager: ChatDispatcher
    scheduler: BookingScheduler

    async def say(self, text: str) -> None:
        await self.manager.handle(Command(chat_id=CHAT, user_id=CHAT, text=text))

    async def tap(self, question: Question, option_id: str) -> None:
        answer = Answer(
            chat_id=CHAT,
            user_id=CHAT,
            run_id=question.run_id,
            seq=question.seq,
            option_id=option_id,
        )
        outcome = await self.manager.answer(answer)
        assert outcome.accepted, outcome.note


BotFactory = Callable[..., AbstractAsyncContextManager[Bot]]


@pytest.fixture
def make_bot(
    storage: Storage, sink: CollectingSink, clock: ManualClock, portal_url: str, pool: BrowserPool
) -> BotFactory:
    """One process: every scenario on the real portal, the scheduler's timer running
    unless ``started=False``."""

    @asynccontextmanager
    async def factory(*, started: bool = True, owner: str = "p1") -> AsyncIterator[Bot]:
        account = PortalAccount(username="club", password="club-demo")
        work = PortalWork(
            pool=pool,
            system=refportal_system(portal_url),
            account=account,
            vault=CredentialVault(storage, None),
        )
        bus = EventBus(storage.events)
        scenarios = product_scenarios(
            storage, work, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=clock, bus=bus
        )
        settings = SchedulerSettings(first_fire_delay_seconds=0.05)
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
                settings=settings,
                owner_id=owner,
                bus=bus,
            )
            if not started:
                yield Bot(manager, scheduler)
                await manager.runner.wait_idle()
                return
            async with scheduler:
                yield Bot(manager, scheduler)
                await manager.runner.wait_idle()

    return factory


async def create(bot: Bot, sink: CollectingSink) -> None:
    mark = len(sink.outputs)
    await bot.say(CREATE)
    confirm = await sink.wait_for(Question, lambda q: q.key == "confirm", after=mark)
    await bot.tap(confirm, "create")
    await sink.wait_for(Done, lambda d: d.run_id == confirm.run_id, after=mark)


def booked_text(day: str) -> Callable[[Done], bool]:
    return lambda d: d.text == f"Забронирована 405 (Главный корпус, чт {day}, 18:00–20:00)"


async def dates(portal_url: str) -> list[str]:
    found = await portal_bookings(portal_url, user="club")
    assert {(b["building"], str(b["room_number"]), b["start"], b["end"]) for b in found} <= {
        ("main", "405", "18:00", "20:00")
    }
    return sorted(b["date"] for b in found)


async def test_a_schedule_created_in_the_chat_books_each_open_date_on_the_portal(
    make_bot: BotFactory, sink: CollectingSink, portal_url: str, storage: Storage
) -> None:
    async with make_bot() as bot:
        await create(bot, sink)
        await sink.wait_for(Done, booked_text("26.11"), timeout=WAIT)
        await sink.wait_for(Done, booked_text("03.12"), timeout=WAIT)
        assert await bot.scheduler.tick() == []
    assert await dates(portal_url) == ["2026-11-26", "2026-12-03"]
    [schedule] = await storage.schedules.for_owner(CHAT)
    assert sorted((f.target_date.isoformat(), f.status) for f in schedule.history) == [
        ("2026-11-26", "done"),
        ("2026-12-03", "done"),
    ]


async def test_restart_and_downtime_book_every_date_once(
    make_bot: BotFactory, sink: CollectingSink, portal_url: str, clock: ManualClock
) -> None:
    async with make_bot(started=False) as bot:  # created, then the process stops
        await create(bot, sink)
    assert await dates(portal_url) == []
    async with make_bot():  # the start-up tick books what is due
        await sink.wait_for(Done, booked_text("26.11"), timeout=WAIT)
        await sink.wait_for(Done, booked_text("03.12"), timeout=WAIT)
    # Down over Thursday 00:00, when 10.12 entered the portal's window.
    clock.set(dt.datetime(2026, 11, 26, 12, 0, tzinfo=MSK))
    async with make_bot():
        await sink.wait_for(Done, booked_text("10.12"), timeout=WAIT)
    async with make_bot() as bot:
        assert await bot.scheduler.tick() == []
    assert await dates(portal_url) == ["2026-11-26", "2026-12-03", "2026-12-10"]


async def test_two_processes_sharing_redis_book_each_date_once(
    make_bot: BotFactory, sink: CollectingSink, portal_url: str
) -> None:
    async with make_bot(started=False, owner="a") as one, make_bot(owner="b") as two:
        await create(one, sink)
        await asyncio.gather(one.scheduler.tick(), two.scheduler.tick(), two.scheduler.tick())
        await sink.wait_for(Done, booked_text("26.11"), timeout=WAIT)
        await sink.wait_for(Done, booked_text("03.12"), timeout=WAIT)
    assert await dates(portal_url) == ["2026-11-26", "2026-12-03"]


async def test_a_taken_room_offers_alternatives_as_buttons(
    make_bot: BotFactory,
    sink: CollectingSink,
    portal_url: str,
    storage: Storage,
    clock: ManualClock,
) -> None:
    await set_quirks(portal_url, full_building="main")
    async with make_bot(started=False) as bot:
        await bot.say("каждый четверг бронируй аудиторию в главном корпусе с 18 до 20")
        confirm = await sink.wait_for(Question, lambda q: q.key == "confirm")
        await bot.tap(confirm, "create")
        await sink.wait_for(Done, lambda d: d.run_id == confirm.run_id)
        [schedule] = await storage.schedules.for_owner(CHAT)
        mark = len(sink.outputs)
        started = await bot.scheduler.fire_schedule(schedule, clock.now())
        assert len(started) == 2
        question = await sink.wait_for(
            Question, lambda q: q.key == "alt1" and q.run_id == started[0], after=mark, timeout=WAIT
        )
        assert "Не нашлось" in question.text and question.options
        other = next(o for o in question.options if o.label.startswith("Корпус на Чайковского"))
        await bot.tap(question, other.id)
        await sink.wait_for(Done, lambda d: d.run_id == started[0], timeout=WAIT)
        await bot.manager.runner.wait_idle()
    booked = await portal_bookings(portal_url, user="club")
    assert [b["building"] for b in booked] == ["chaikovsky"]
    fresh = await storage.schedules.get(str(schedule.id))
    assert fresh is not None
    assert sorted(f.status for f in fresh.history) == ["done", "running"]
