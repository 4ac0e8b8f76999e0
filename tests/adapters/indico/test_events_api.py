"""The club's events on a real Indico 3.2.9 (``adapters/indico/events.py``, issue 30):
create with a room booked through the event, find by the run's mark, list, open
registration with a limit, count, delete. Every outcome is checked in Indico's database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio

from adapters.indico.api import login
from adapters.indico.errors import SlotOccupied
from adapters.indico.event_system import IndicoEventSystem
from adapters.indico.events import IndicoEvents, events_on
from core.browser import BrowserPool
from scenarios.events import Event, EventNotFound, EventSystem, RoomTaken
from tests.support.indico_server import DbBooking, IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

CLUB_CATEGORY = "Шахматный клуб"  # scripts/indico/seed.json: the club may create events here


@pytest_asyncio.fixture(loop_scope="session")
async def events(indico_server: IndicoServer, pool: BrowserPool) -> AsyncIterator[IndicoEvents]:
    category = await asyncio.to_thread(indico_server.category_id, CLUB_CATEGORY)
    async with pool.context() as context:
        page = await context.new_page()
        club = indico_server.club
        await login(page, indico_server.base_url, club.username, club.password)
        await page.close()
        yield await events_on(
            context,
            indico_server.base_url,
            category_id=category,
            timezone=indico_server.stack.timezone,
        )


def _day(server: IndicoServer, ahead: int) -> date:
    return server.today() + timedelta(days=ahead)


def _utc(server: IndicoServer, day: date, at: time) -> datetime:
    """A local time as Indico stores event times: UTC, naive."""
    local = datetime.combine(day, at).replace(tzinfo=ZoneInfo(server.stack.timezone))
    return local.astimezone(UTC).replace(tzinfo=None)


async def _room_id(server: IndicoServer, name: str) -> str:
    return str((await asyncio.to_thread(server.room, name)).id)


async def _booking(server: IndicoServer, booking_id: int) -> DbBooking:
    found = await asyncio.to_thread(server.booking, booking_id)
    assert found is not None
    return found


async def _with_mark(server: IndicoServer, mark: str) -> list[int]:
    """The ids of the live events whose description carries ``mark``."""
    rows = await asyncio.to_thread(server.events)
    return [e.id for e in rows if mark in e.description and not e.is_deleted]


async def test_an_event_with_a_room_has_the_booking_linked_and_a_retry_makes_nothing_new(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    day = _day(indico_server, 12)
    room = await _room_id(indico_server, "7/7-703")
    made = await events.create_event(
        title="Открытое занятие по робототехнике",
        day=day,
        start=time(18),
        end=time(20),
        room_id=room,
        mark="#ev-create-1",
    )
    assert (made.title, made.day, made.start, made.end) == (
        "Открытое занятие по робототехнике",
        day,
        time(18),
        time(20),
    )
    assert made.url.endswith(f"/event/{made.id}/")
    assert made.room == "7/7-703" and made.room_id == room and made.booking_id is not None

    row = await asyncio.to_thread(indico_server.event, int(made.id))
    category = await asyncio.to_thread(indico_server.category_id, CLUB_CATEGORY)
    assert row is not None and not row.is_deleted
    assert row.category_id == category and "#ev-create-1" in row.description
    assert (row.start, row.end) == (
        _utc(indico_server, day, time(18)),
        _utc(indico_server, day, time(20)),
    )
    assert row.booking_ids == (int(made.booking_id),)
    booking = await _booking(indico_server, int(made.booking_id))
    assert (booking.room_id, booking.state) == (int(room), "accepted")
    assert (booking.start, booking.end) == (
        datetime.combine(day, time(18)),
        datetime.combine(day, time(20)),
    )
    assert booking.created_by_id == indico_server.club.id

    # The same request again (a retry after a crash): the same event and booking, no other.
    again = await events.create_event(
        title="Открытое занятие по робототехнике",
        day=day,
        start=time(18),
        end=time(20),
        room_id=room,
        mark="#ev-create-1",
    )
    assert (again.id, again.booking_id) == (made.id, made.booking_id)
    assert await _with_mark(indico_server, "#ev-create-1") == [int(made.id)]
    live = [
        b
        for b in await asyncio.to_thread(indico_server.bookings, int(room))
        if "#ev-create-1" in b.reason
    ]
    assert [b.id for b in live] == [int(made.booking_id)]

    # The port's model is built from the adapter's field for field.
    assert Event.model_validate(made.model_dump()).id == made.id


async def test_find_by_mark_and_the_upcoming_events(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    day = _day(indico_server, 13)
    later = await events.create_event(
        title="Турнир", day=day, start=time(16), end=time(19), room_id=None, mark="#ev-find-2"
    )
    earlier = await events.create_event(
        title="Лекция", day=day, start=time(10), end=time(11, 30), room_id=None, mark="#ev-find-1"
    )
    found = await events.find_event("#ev-find-2")
    assert found is not None and found.id == later.id and found.title == "Турнир"
    assert await events.find_event("#ev-nowhere") is None
    assert await events.find_event("#ev-find") is None  # a mark is a whole token

    upcoming = await events.upcoming_events()
    ours = [e for e in upcoming if e.id in (earlier.id, later.id)]
    assert [(e.title, e.day, e.start, e.end) for e in ours] == [
        ("Лекция", day, time(10), time(11, 30)),
        ("Турнир", day, time(16), time(19)),
    ]
    assert upcoming == sorted(upcoming, key=lambda e: (e.day, e.start, int(e.id)))
    assert all(e.day >= indico_server.today() for e in upcoming)
    assert all(isinstance(e, Event) for e in upcoming)


async def test_registration_opens_with_a_limit_and_is_counted(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    made = await events.create_event(
        title="Сеанс одновременной игры",
        day=_day(indico_server, 14),
        start=time(17),
        end=time(19),
        room_id=None,
        mark="#ev-reg-1",
    )
    await events.open_registration(made.id, 30)
    forms = await asyncio.to_thread(indico_server.regforms, int(made.id))
    assert len(forms) == 1
    form = forms[0]
    assert form.limit == 30 and form.end is None
    assert form.start is not None and form.start <= datetime.now(UTC).replace(tzinfo=None)
    assert await events.registrations(made.id) == 0

    await asyncio.to_thread(indico_server.register, form.id, "other")
    assert await events.registrations(made.id) == 1
    assert (await asyncio.to_thread(indico_server.regforms, int(made.id)))[0].registrations == 1

    # Again with another limit: the same form, the new limit, still open.
    await events.open_registration(made.id, 5)
    forms = await asyncio.to_thread(indico_server.regforms, int(made.id))
    assert [(f.id, f.limit, f.end) for f in forms] == [(form.id, 5, None)]
    assert await events.registrations(made.id) == 1

    # No limit at all.
    await events.open_registration(made.id, None)
    forms = await asyncio.to_thread(indico_server.regforms, int(made.id))
    assert [(f.id, f.limit, f.end) for f in forms] == [(form.id, None, None)]


async def test_delete_removes_the_event_and_frees_its_room(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    day = _day(indico_server, 15)
    room = await _room_id(indico_server, "7/7-704")
    made = await events.create_event(
        title="Разбор партий", day=day, start=time(12), end=time(14), room_id=room, mark="#ev-del-1"
    )
    assert made.booking_id is not None
    await events.delete_event(made.id)

    row = await asyncio.to_thread(indico_server.event, int(made.id))
    assert row is not None and row.is_deleted
    assert (await _booking(indico_server, int(made.booking_id))).state == "cancelled"
    assert await events.find_event("#ev-del-1") is None
    assert made.id not in [e.id for e in await events.upcoming_events()]
    # The room is free again: someone else may book it at that time.
    await asyncio.to_thread(
        indico_server.add_booking,
        int(room),
        datetime.combine(day, time(12)),
        datetime.combine(day, time(14)),
    )


async def test_a_taken_room_leaves_no_event_behind(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    day = _day(indico_server, 16)
    room = await _room_id(indico_server, "7/7-705")
    await asyncio.to_thread(
        indico_server.add_booking,
        int(room),
        datetime.combine(day, time(18)),
        datetime.combine(day, time(20)),
    )
    with pytest.raises(SlotOccupied):
        await events.create_event(
            title="Блиц", day=day, start=time(18), end=time(20), room_id=room, mark="#ev-taken-1"
        )
    assert await _with_mark(indico_server, "#ev-taken-1") == []
    assert await events.find_event("#ev-taken-1") is None


async def test_a_room_that_needs_approval_is_pre_booked_for_the_event(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    day = _day(indico_server, 17)
    room = await _room_id(indico_server, "3/2-202")  # «Актовый зал»: needs confirmation
    made = await events.create_event(
        title="Турнир в актовом зале",
        day=day,
        start=time(14),
        end=time(18),
        room_id=room,
        mark="#ev-pre-1",
    )
    assert made.booking_id is not None
    row = await asyncio.to_thread(indico_server.event, int(made.id))
    assert row is not None and row.booking_ids == (int(made.booking_id),)
    assert (await _booking(indico_server, int(made.booking_id))).state == "pending"


async def test_the_port_answers_in_its_own_models_and_errors(
    indico_server: IndicoServer, events: IndicoEvents
) -> None:
    system: EventSystem = IndicoEventSystem(events)  # the Protocol, checked by mypy
    day = _day(indico_server, 18)
    room = await _room_id(indico_server, "7/7-706")
    made = await system.create_event(
        title="Сеанс одновременной игры",
        day=day,
        start=time(17),
        end=time(19),
        room_id=room,
        mark="#ev-port-1",
    )
    assert type(made) is Event and made.carries("#ev-port-1")
    found = await system.find_event("#ev-port-1")
    assert found is not None and type(found) is Event and found.id == made.id
    assert all(type(e) is Event for e in await system.upcoming_events())

    # Indico's refusals reach a scenario as the port's errors, in nobody's class but its.
    with pytest.raises(RoomTaken) as taken:
        await system.create_event(
            title="Ещё одно", day=day, start=time(17), end=time(19), room_id=room, mark="#ev-port-2"
        )
    assert isinstance(taken.value.__cause__, SlotOccupied)
    assert await _with_mark(indico_server, "#ev-port-2") == []
    await system.delete_event(made.id)
    with pytest.raises(EventNotFound):
        await system.delete_event(made.id)
