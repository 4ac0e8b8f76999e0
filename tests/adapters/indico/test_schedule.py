"""A weekly schedule on a real Indico: each date is booked once, as it enters the rooms'
booking horizon (Indico's ``max_advance_days``), checked in Indico's database.

Indico checks dates against the real clock, so the product runs on the real clock too;
a date "enters the horizon" because the rooms' horizon grows in Indico's database (as
an administrator would change it) and the product re-reads the catalogue. The scheduler
books as far ahead as the catalogue's longest horizon (``schedules.lead.lead_for``), one
number for the whole catalogue, so every room's horizon is changed alike here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio
from pydantic import SecretStr

from adapters.indico import IndicoSystem
from app.engine import build_core
from core.browser import BrowserPool
from core.clock import SystemClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.output import Done, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.site.profile import Profile
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.records import Schedule
from scenarios.booking.schedules import BookingScheduler
from scenarios.booking.settings import SchedulerSettings
from storage import Storage
from storage.files import FileCache
from tests.adapters.indico.harness import FAST
from tests.support.fresh_storage import fresh_storage
from tests.support.indico_server import IndicoServer
from tests.support.jobs import product_scenarios
from tests.support.sinks import CollectingSink

pytestmark = pytest.mark.asyncio(loop_scope="session")

CHAT = 100
ROOM = "703"
START, END = dt.time(16, 0), dt.time(18, 0)  # no other test of the package books it then
SEEDED_ADVANCE_DAYS = 30  # scripts/indico/seed.json; the other tests rely on it
WAIT = 120.0  # a booking is a browser login and a few JSON calls on a 2-core machine
# «по вторникам»: the weekdays as the NLU reads a recurrence.
BY_WEEKDAY = (
    "понедельникам",
    "вторникам",
    "средам",
    "четвергам",
    "пятницам",
    "субботам",
    "воскресеньям",
)


@pytest_asyncio.fixture(loop_scope="session")
async def storage(secantus_uri: str, redis_url: str, tmp_path: Path) -> AsyncIterator[Storage]:
    """Storage on the session's loop (the package's Indico and Chromium live on it)."""
    async with fresh_storage(secantus_uri, redis_url, tmp_path) as opened:
        yield opened


@pytest.fixture
def horizon(indico_server: IndicoServer) -> Iterator[Callable[[int], None]]:
    """``horizon(days)``: every room may be booked ``days`` ahead (Indico refuses a day
    ``max_advance_days`` or more ahead); the seeded value comes back afterwards."""

    def set_days(days: int) -> None:
        indico_server.stack.psql(f"UPDATE roombooking.rooms SET max_advance_days = {int(days) + 1}")

    try:
        yield set_days
    finally:
        indico_server.stack.psql(
            f"UPDATE roombooking.rooms SET max_advance_days = {SEEDED_ADVANCE_DAYS}"
        )


@dataclass
class Bot:
    manager: ChatDispatcher
    scheduler: BookingScheduler
    catalogues: Catalogues

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


@asynccontextmanager
async def running_bot(
    storage: Storage, sink: CollectingSink, server: IndicoServer, pool: BrowserPool, cache: Path
) -> AsyncIterator[Bot]:
    """One bot process as ``app.compose.open_core`` wires it: the catalogue read from
    Indico with the club's account (cached in ``cache``), every scenario, the scheduler's
    timer running on the real clock."""
    clock = SystemClock()
    account = PortalAccount(username=server.club.username, password=SecretStr(server.club.password))
    work = PortalWork(
        pool=pool,
        system=IndicoSystem(server.base_url, retry=FAST),
        account=account,
        vault=CredentialVault(storage, None),
    )
    catalogues = Catalogues(
        read=work.read_catalogue,
        cache=FileCache(cache),
        key=f"indico:{server.base_url}",
        profile=Profile(),
        clock=clock,
    )
    bus = EventBus(storage.events)
    async with catalogues:
        scenarios = product_scenarios(storage, work, catalogues=catalogues, clock=clock, bus=bus)
        async with build_core(
            load_settings(),
            storage,
            sink,
            catalogues=catalogues,
            scenarios=scenarios,
            clock=clock,
            bus=bus,
        ) as manager:
            # A tick a second: a date that entered the horizon is booked without waiting
            # the default five minutes for the catch-up tick.
            settings = SchedulerSettings(first_fire_delay_seconds=0.05, tick_seconds=1)
            scheduler = BookingScheduler(
                storage=storage,
                manager=manager,
                clock=clock,
                settings=settings,
                owner_id="p1",
                bus=bus,
                catalogues=catalogues,
            )
            async with scheduler:
                yield Bot(manager, scheduler, catalogues)
                await manager.runner.wait_idle()


def booked_on(day: dt.date) -> Callable[[Done], bool]:
    return lambda d: d.text.startswith(f"Забронирована {ROOM}") and f"{day:%d.%m}" in d.text


def club_bookings(server: IndicoServer) -> dict[dt.date, list[tuple[str, str]]]:
    """(state, reason) of the club's bookings of the room at the schedule's time, per day,
    as Indico's database has them."""
    room = server.room(f"7/7-{ROOM}")
    club = server.club.id
    found: dict[dt.date, list[tuple[str, str]]] = {}
    for b in server.bookings(room.id):
        if club in (b.booked_for_id, b.created_by_id) and (b.start.time(), b.end.time()) == (
            START,
            END,
        ):
            found.setdefault(b.start.date(), []).append((b.state, b.reason))
    return found


async def only_schedule(storage: Storage) -> Schedule:
    [schedule] = await storage.schedules.for_owner(CHAT)
    return schedule


async def test_a_weekly_schedule_books_each_date_once_as_it_enters_the_horizon(
    storage: Storage,
    indico_server: IndicoServer,
    pool: BrowserPool,
    horizon: Callable[[int], None],
    tmp_path: Path,
) -> None:
    sink = CollectingSink()
    cache = tmp_path / "cache"
    # The product's days are the bot's time zone's; Indico's are its host's. Dates a day
    # inside either end of the horizon keep the test true whichever day each says it is.
    today = dt.datetime.now(ZoneInfo(load_settings().timezone)).date()
    first = today + dt.timedelta(days=1)
    early = [first, first + dt.timedelta(days=7)]  # within 10 days
    later = first + dt.timedelta(days=14)  # within 17 days, not within 10
    await asyncio.to_thread(horizon, 10)

    async with running_bot(storage, sink, indico_server, pool, cache) as bot:
        assert bot.catalogues.current.longest_horizon() == 10
        mark = len(sink.outputs)
        await bot.say(f"по {BY_WEEKDAY[first.weekday()]} бронируй {ROOM} в 7 корпусе с 16 до 18")
        confirm = await sink.wait_for(Question, lambda q: q.key == "confirm", after=mark)
        await bot.tap(confirm, "create")
        for day in early:
            await sink.wait_for(Done, booked_on(day), after=mark, timeout=WAIT)
        await bot.manager.runner.wait_idle()
        assert await bot.scheduler.tick() == []  # nothing more is due at 10 days
        assert sorted(await asyncio.to_thread(club_bookings, indico_server)) == early

        # The rooms may now be booked 17 days ahead; the daily re-read of the catalogue
        # (``Catalogues`` refresh) brings it to the product, and the next tick books it.
        await asyncio.to_thread(horizon, 17)
        await bot.catalogues.refresh()
        assert bot.catalogues.current.longest_horizon() == 17
        await sink.wait_for(Done, booked_on(later), after=mark, timeout=WAIT)
        await bot.manager.runner.wait_idle()
        assert await bot.scheduler.tick() == []

    # A restart (a new scheduler on the same storage and catalogue cache) books nothing.
    async with running_bot(storage, sink, indico_server, pool, cache) as bot:
        assert bot.catalogues.current.longest_horizon() == 17
        assert await bot.scheduler.tick() == []
        await bot.manager.runner.wait_idle()

    in_indico = await asyncio.to_thread(club_bookings, indico_server)
    schedule = await only_schedule(storage)
    runs = {f.target_date: f.run_id for f in schedule.history}
    assert sorted(f.status for f in schedule.history) == ["done", "done", "done"]
    assert sorted(in_indico) == [*early, later] == sorted(runs)
    for day, rows in in_indico.items():
        # Exactly one accepted booking per due date, made by that date's firing's run.
        assert [state for state, _ in rows] == ["accepted"], (day, rows)
        assert rows[0][1].endswith(f"#{runs[day]}"), (day, rows)
    booked = [d for d in sink.of_kind(Done) if d.text.startswith(f"Забронирована {ROOM}")]
    assert len(booked) == 3
