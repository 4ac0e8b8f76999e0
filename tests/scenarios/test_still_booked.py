"""Reminders check the reference portal before they go (``scenarios.booking.still_booked``):
a booking cancelled on the site itself is not reminded of, one room of two gone leaves the
other in the text, one session per account reads a whole pass, none when nothing is due,
and a site that cannot be read does not cost the user their reminder.

One portal and one Chromium for the module (reset per test); real storage and vault.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from cryptography.fernet import Fernet
from pydantic import SecretStr

from adapters.profile import ProfileSystem
from core.browser import BrowserContext, BrowserPool
from core.browser.retry import RetryPolicy
from core.clock import ManualClock
from core.events import BaseEvent, EventBus
from core.output import Reply
from core.store import ScenarioRun
from core.vault import CredentialVault
from portal.server import RunningPortal, running_portal
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.events import BookingsGoneFromSite
from scenarios.booking.models import Booking
from scenarios.booking.port import BookingSession
from scenarios.booking.records import ReminderRoom, ReminderState
from scenarios.booking.reminders import BookedRequest, Reminders
from scenarios.booking.still_booked import StillBooked
from storage import Storage
from tests.support.fresh_storage import fresh_storage
from tests.support.portal import reset_portal, set_quirks
from tests.support.portal_fixtures import NOW
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink

pytestmark = pytest.mark.asyncio(loop_scope="session")

THURSDAY = dt.date(2026, 11, 26)  # the portal's clock stands at Monday 23.11, 10:00
START, END = dt.time(18, 0), dt.time(20, 0)  # Moscow
HOUR_BEFORE = dt.datetime(2026, 11, 26, 14, 0, tzinfo=dt.UTC)  # 17:00 in Moscow
FAST = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.02)
CLUB = ("club", "club-demo")
TEXT = "🔔 Напоминание: сегодня 18:00–20:00, Главный корпус: "


@pytest.fixture(scope="module")
def site_clock() -> ManualClock:
    return ManualClock(NOW)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def portal(site_clock: ManualClock) -> AsyncIterator[RunningPortal]:
    async with running_portal(test_api=True, seed=1, clock=site_clock.now) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=3) as opened:
        yield opened


@pytest_asyncio.fixture(loop_scope="session")
async def storage(secantus_uri: str, redis_url: str, tmp_path: Path) -> AsyncIterator[Storage]:
    """Storage on the session's loop (the module's portal and Chromium live on it)."""
    async with fresh_storage(secantus_uri, redis_url, tmp_path) as opened:
        yield opened


class CountingSystem:
    """The reference portal's adapter, counting the sessions opened on it."""

    def __init__(self, inner: ProfileSystem) -> None:
        self._inner = inner
        self.kind = inner.kind
        self.url = inner.url
        self.opened: list[str] = []  # the account of each session

    def open_session(
        self, context: BrowserContext, *, username: str, password: str, on_retry: Any = None
    ) -> BookingSession:
        self.opened.append(username)
        return self._inner.open_session(
            context, username=username, password=password, on_retry=on_retry
        )


class Site:
    """The portal as the test uses it: booking and cancelling as a person on the site."""

    def __init__(self, portal: RunningPortal, pool: BrowserPool) -> None:
        self.url = portal.url
        self._pool = pool

    async def book(self, count: int, *, account: tuple[str, str] = CLUB) -> list[Booking]:
        async with self._session(account) as session:
            free = (await session.availability("main", THURSDAY)).free_rooms(START, END)
            return [
                await session.book(room=room, day=THURSDAY, start=START, end=END, purpose="клуб")
                for room in free[:count]
            ]

    async def cancel(self, booking: Booking, *, account: tuple[str, str] = CLUB) -> None:
        async with self._session(account) as session:
            await session.cancel(booking.number)

    @asynccontextmanager
    async def _session(self, account: tuple[str, str]) -> AsyncIterator[BookingSession]:
        async with self._pool.context() as context:
            session = refportal_system(self.url, retry=FAST).open_session(
                context, username=account[0], password=account[1]
            )
            try:
                await session.ensure_logged_in()
                yield session
            finally:
                await session.close()


@pytest_asyncio.fixture(loop_scope="session")
async def site(portal: RunningPortal, pool: BrowserPool) -> Site:
    await reset_portal(portal.url)
    return Site(portal, pool)


@pytest.fixture
def events() -> list[BaseEvent]:
    return []


@pytest.fixture
def system(portal: RunningPortal) -> CountingSystem:
    return CountingSystem(refportal_system(portal.url, retry=FAST))


@pytest.fixture
def vault(storage: Storage) -> CredentialVault:
    return CredentialVault(storage, SecretStr(Fernet.generate_key().decode()))


@pytest.fixture
def sink() -> CollectingSink:
    return CollectingSink()


@pytest.fixture
def reminders(
    storage: Storage,
    pool: BrowserPool,
    system: CountingSystem,
    vault: CredentialVault,
    sink: CollectingSink,
    events: list[BaseEvent],
) -> Reminders:
    account = PortalAccount(username=CLUB[0], password=SecretStr(CLUB[1]))
    work = PortalWork(pool=pool, system=system, account=account, vault=vault)
    bus = EventBus(storage.events)

    async def record(event: BaseEvent) -> None:
        events.append(event)

    bus.subscribe(record)
    live = StillBooked(work=work, vault=vault)
    reminders = Reminders(
        storage.reminders, storage.users, sink, clock=ManualClock(NOW), live=live, bus=bus
    )
    bus.subscribe(reminders.on_event)
    return reminders


async def remind(
    reminders: Reminders, storage: Storage, user_id: int, run_id: str, made: list[Booking]
) -> None:
    """``user_id`` (reminders on) had ``made`` booked by run ``run_id``."""
    user = await storage.users.get_or_create(user_id)
    user.reminders = True
    await storage.users.save(user)
    run = ScenarioRun(
        short_id=run_id, chat_id=user_id, user_id=user_id, scenario="book_rooms", lang="ru"
    )
    rooms = [ReminderRoom(number=b.number, room=b.room) for b in made]
    request = BookedRequest(place="Главный корпус", day=THURSDAY, start=START, end=END, rooms=rooms)
    await reminders.plan(run, request)


def texts(sink: CollectingSink) -> dict[int, str]:
    return {reply.chat_id: reply.text for reply in sink.of_kind(Reply)}


async def state_of(storage: Storage, run_id: str) -> ReminderState:
    record = await storage.reminders.get(run_id)
    assert record is not None
    return record.state


async def test_a_booking_still_on_the_site_is_reminded_of(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink,
    system: CountingSystem,
) -> None:  # fmt: skip
    (made,) = await site.book(1)
    await remind(reminders, storage, 7, "run1", [made])

    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert texts(sink) == {7: TEXT + f"{made.room}."}
    assert await state_of(storage, "run1") is ReminderState.SENT
    assert system.opened == ["club"]


async def test_a_booking_cancelled_on_the_site_is_not_reminded_of_and_its_reminder_is_cancelled(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink,
    events: list[BaseEvent],
) -> None:  # fmt: skip
    (made,) = await site.book(1)
    await remind(reminders, storage, 7, "run1", [made])
    await site.cancel(made)  # on the site itself, not through the bot

    assert await reminders.send_due(HOUR_BEFORE) == 0
    assert sink.outputs == []
    record = await storage.reminders.get("run1")
    assert record is not None and record.state is ReminderState.CANCELLED and record.rooms == []
    gone = [e for e in events if isinstance(e, BookingsGoneFromSite)]
    assert [(e.run_id, e.chat_id, e.numbers) for e in gone] == [("run1", 7, [made.number])]
    assert await reminders.send_due(HOUR_BEFORE + dt.timedelta(minutes=5)) == 0


async def test_one_room_of_two_cancelled_on_the_site_leaves_the_other_in_the_reminder(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink
) -> None:
    first, second = await site.book(2)
    await remind(reminders, storage, 7, "run1", [first, second])
    await site.cancel(first)

    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert texts(sink)[7].endswith(f"Главный корпус: {second.room}.")
    assert first.room not in texts(sink)[7]
    record = await storage.reminders.get("run1")
    assert record is not None and record.state is ReminderState.SENT
    assert [room.number for room in record.rooms] == [second.number]


async def test_a_pass_reads_each_account_once_and_nothing_when_nothing_is_due(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink,
    system: CountingSystem, vault: CredentialVault,
) -> None:  # fmt: skip
    """Two users on the club's account and one with a /login of their own: two sessions,
    each reminder checked against the account that made its booking."""
    club_first, club_second, club_gone = await site.book(3)
    (own,) = await site.book(1, account=("chess", "chess-demo"))
    await vault.save_credentials(9, "chess", SecretStr("chess-demo"))
    await remind(reminders, storage, 7, "run7", [club_first])
    await remind(reminders, storage, 8, "run8", [club_second, club_gone])
    await remind(reminders, storage, 9, "run9", [own])
    await site.cancel(club_gone)

    assert await reminders.send_due(HOUR_BEFORE - dt.timedelta(minutes=1)) == 0
    assert system.opened == []  # nothing due: the site is not read
    assert await reminders.send_due(HOUR_BEFORE) == 3
    assert sorted(system.opened) == ["chess", "club"]
    assert texts(sink) == {
        7: TEXT + f"{club_first.room}.",
        8: TEXT + f"{club_second.room}.",
        9: TEXT + f"{own.room}.",
    }


async def test_a_booking_made_on_the_clubs_account_before_a_login_is_still_reminded_of(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink,
    system: CountingSystem, vault: CredentialVault,
) -> None:  # fmt: skip
    """Booked with the club's account, then /login: their own account does not list it,
    the club's does — the reminder goes out, not cancelled as gone."""
    (made,) = await site.book(1)
    await vault.save_credentials(9, "chess", SecretStr("chess-demo"))
    await remind(reminders, storage, 9, "run9", [made])

    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert sorted(system.opened) == ["chess", "club"]
    assert texts(sink) == {9: TEXT + f"{made.room}."}
    assert await state_of(storage, "run9") is ReminderState.SENT


async def test_reminders_of_users_who_turned_them_off_do_not_read_the_site(
    site: Site, reminders: Reminders, storage: Storage, system: CountingSystem
) -> None:
    (made,) = await site.book(1)
    await remind(reminders, storage, 7, "run1", [made])
    user = await storage.users.get_or_create(7)
    user.reminders = False
    await storage.users.save(user)

    assert await reminders.send_due(HOUR_BEFORE) == 0
    assert await state_of(storage, "run1") is ReminderState.SKIPPED
    assert system.opened == []


async def test_a_site_that_cannot_be_read_still_sends_the_reminder_unchecked(
    site: Site, reminders: Reminders, storage: Storage, sink: CollectingSink,
    system: CountingSystem,
) -> None:  # fmt: skip
    first, second = await site.book(2)
    await remind(reminders, storage, 7, "run1", [first, second])
    await site.cancel(first)
    await set_quirks(site.url, error_rate=1.0)  # every page a 500 or 502

    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert system.opened == ["club"]  # it was tried
    assert texts(sink)[7].endswith(f"Главный корпус: {first.room}, {second.room}.")
    assert await state_of(storage, "run1") is ReminderState.SENT
