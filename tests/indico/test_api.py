"""The Indico client against the real server: every answer checked in Indico's own database.

The server is shared by the session, so each test books its own room and day.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from playwright.async_api import Browser, BrowserContext

from adapters.indico import (
    BeyondHorizon,
    BookingState,
    BusyKind,
    IndicoClient,
    LoginRefused,
    OutsideBookableHours,
    PasswordChangeRequired,
    SessionLost,
    SlotOccupied,
    SpansMidnight,
    SystemUnavailable,
    login,
    resume,
)
from storage.process import free_port
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute))


async def test_catalogue_lists_seeded_rooms(club: IndicoClient) -> None:
    catalogue = await club.catalogue()
    assert [loc.name for loc in catalogue.locations] == ["Университет"]
    assert set(catalogue.buildings) == {"7", "Библиотека", "3"}
    by_name = {room.name: room for room in catalogue.rooms}
    assert {f"7/7-70{n}" for n in range(1, 7)} <= by_name.keys()
    assert {f"Библиотека/1-10{n}" for n in range(1, 5)} <= by_name.keys()
    room = by_name["7/7-701"]
    assert (room.building, room.floor, room.number, room.capacity) == ("7", "7", "701", 12)
    assert room.max_advance_days == 30
    assert [(h.start, h.end) for h in room.bookable_hours] == [(time(8), time(22))]
    assert room.can_book and not room.needs_confirmation and room.is_reservable
    hall = by_name["3/2-202"]
    assert hall.needs_confirmation and hall.can_prebook and not hall.can_book
    assert hall.full_name == "3/2-202 - Актовый зал"
    assert club.user.full_name == "Шахматный Клуб"


async def test_availability_shows_someone_elses_booking(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    room = indico_server.room("7/7-704")
    day = indico_server.today() + timedelta(days=2)
    theirs = indico_server.add_booking(room.id, _at(day, 12), _at(day, 13), "Чужая встреча")

    [clash] = await club.availability([room.id], day, time(11), time(14))
    assert not clash.available
    bookings = [b for b in clash.busy if b.kind is BusyKind.BOOKING]
    assert [(b.start, b.end, b.reservation_id) for b in bookings] == [
        (_at(day, 12), _at(day, 13), theirs)
    ]
    assert bookings[0].booked_for == indico_server.other.full_name
    assert bookings[0].reason == "Чужая встреча"
    outside = [
        (b.start.time(), b.end.time()) for b in clash.busy if b.kind is BusyKind.OUTSIDE_HOURS
    ]
    assert outside == [(time(0), time(8)), (time(22), time(23, 59))]

    [free] = await club.availability([room.id], day, time(14), time(15))
    assert free.available


async def test_book_list_cancel_round_trip(club: IndicoClient, indico_server: IndicoServer) -> None:
    room = indico_server.room("7/7-703")
    day = indico_server.today() + timedelta(days=3)
    booked = await club.create_booking(room.id, _at(day, 15), _at(day, 16, 30), "Шахматный турнир")
    assert booked.state is BookingState.ACCEPTED

    row = indico_server.booking(booked.id)
    assert row is not None
    assert (row.room_id, row.start, row.end) == (room.id, _at(day, 15), _at(day, 16, 30))
    assert (row.state, row.reason) == ("accepted", "Шахматный турнир")
    assert row.booked_for_id == row.created_by_id == indico_server.club.id

    mine = await club.my_bookings()
    assert booked.id in {b.id for b in mine}
    [listed] = [b for b in mine if b.id == booked.id]
    assert (listed.room_id, listed.start, listed.end) == (room.id, _at(day, 15), _at(day, 16, 30))

    [busy] = await club.availability([room.id], day, time(15), time(16))
    assert not busy.available

    cancelled = await club.cancel_booking(booked.id)
    assert cancelled.state is BookingState.CANCELLED
    row = indico_server.booking(booked.id)
    assert row is not None and row.state == "cancelled"
    assert booked.id not in {b.id for b in await club.my_bookings()}


async def test_room_needing_approval_gives_a_pending_booking(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    hall = indico_server.room("3/2-202")
    assert hall.needs_confirmation
    day = indico_server.today() + timedelta(days=4)
    booked = await club.create_booking(hall.id, _at(day, 18), _at(day, 20), "Лекция клуба")
    assert booked.state is BookingState.PENDING
    row = indico_server.booking(booked.id)
    assert row is not None and row.state == "pending"
    [listed] = [b for b in await club.my_bookings() if b.id == booked.id]
    assert listed.state is BookingState.PENDING
    await club.cancel_booking(booked.id)


async def test_beyond_the_horizon_is_refused_with_indicos_words(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    room = indico_server.room("7/7-706")
    assert room.max_advance_days == 30
    before = len(indico_server.bookings())
    day = indico_server.today() + timedelta(days=30)
    with pytest.raises(BeyondHorizon) as err:
        await club.create_booking(room.id, _at(day, 10), _at(day, 11), "Слишком рано")
    assert err.value.status == 418
    assert "more than 30 days in advance" in err.value.message
    assert len(indico_server.bookings()) == before

    last = indico_server.today() + timedelta(days=29)
    booked = await club.create_booking(room.id, _at(last, 10), _at(last, 11), "Последний день")
    await club.cancel_booking(booked.id)


async def test_taken_slot_is_a_typed_conflict(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    room = indico_server.room("7/7-705")
    day = indico_server.today() + timedelta(days=5)
    indico_server.add_booking(room.id, _at(day, 10), _at(day, 12))
    before = indico_server.bookings(room.id)  # the server is the session's: others booked too
    with pytest.raises(SlotOccupied) as err:
        await club.create_booking(room.id, _at(day, 11), _at(day, 13), "Опоздали")
    assert err.value.status == 418
    assert indico_server.bookings(room.id) == before


async def test_outside_bookable_hours_is_refused(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    room = indico_server.room("Библиотека/1-102")
    day = indico_server.today() + timedelta(days=6)
    with pytest.raises(OutsideBookableHours):
        await club.create_booking(room.id, _at(day, 7), _at(day, 9), "Ранняя пташка")


async def test_booking_across_midnight_is_refused(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    room = indico_server.room("Библиотека/1-103")
    day = indico_server.today() + timedelta(days=6)
    before = indico_server.bookings(room.id)
    with pytest.raises(SpansMidnight):
        await club.create_booking(room.id, _at(day, 21), _at(day + timedelta(days=1), 1), "Ночь")
    # Sent anyway, Indico itself fails it (a 500 from an uncaught ValueError): same error.
    body = {
        "room_id": room.id,
        "start_dt": _at(day, 21).isoformat(),
        "end_dt": _at(day + timedelta(days=1), 1).isoformat(),
        "repeat_frequency": "NEVER",
        "repeat_interval": 0,
        "reason": "Ночь",
    }
    with pytest.raises(SpansMidnight) as err:
        await club.http.post("/rooms/api/booking/create", None, body)
    assert err.value.status == 500
    assert indico_server.bookings(room.id) == before


async def test_wrong_password_is_a_login_failure(
    context: BrowserContext, indico_server: IndicoServer
) -> None:
    page = await context.new_page()
    secret = "Not-The-Password-1"
    with pytest.raises(LoginRefused) as err:
        await login(page, indico_server.base_url, "club", secret)
    assert "Invalid credentials" in str(err.value)
    assert secret not in str(err.value)


async def test_password_containing_the_username_forces_a_change(
    context: BrowserContext, indico_server: IndicoServer
) -> None:
    account = indico_server.accounts["lazyuser"]
    page = await context.new_page()
    with pytest.raises(PasswordChangeRequired) as err:
        await login(page, indico_server.base_url, account.username, account.password)
    assert "username" in str(err.value)
    assert account.password not in str(err.value)


async def test_lost_session_is_session_expired(
    context: BrowserContext, indico_server: IndicoServer
) -> None:
    account = indico_server.club
    client = await login(
        await context.new_page(), indico_server.base_url, account.username, account.password
    )
    await client.my_bookings()
    await context.clear_cookies()
    with pytest.raises(SessionLost):
        await client.my_bookings()
    with pytest.raises(SessionLost):
        await client.cancel_booking(1)


async def test_unreachable_indico_is_system_unavailable(context: BrowserContext) -> None:
    client = IndicoClient(context, f"http://127.0.0.1:{free_port()}", "token", timeout_s=5)
    with pytest.raises(SystemUnavailable):
        await client.catalogue()


async def test_resume_reuses_a_logged_in_browser_state(
    browser: Browser, club: IndicoClient, indico_server: IndicoServer
) -> None:
    state = await club.context.storage_state()
    ctx = await browser.new_context(storage_state=state)
    try:
        resumed = await resume(ctx, indico_server.base_url)
        assert resumed.user.id == indico_server.club.id
        assert isinstance(await resumed.my_bookings(), list)
    finally:
        await ctx.close()


async def test_room_booking_app_renders_in_the_browser(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    """Indico's built React assets ship in the wheel and its dev server serves them."""
    page = await club.context.new_page()
    try:
        await page.goto(f"{indico_server.base_url}/rooms/rooms", wait_until="domcontentloaded")
        await page.get_by_text("7/7-701", exact=True).first.wait_for(timeout=30_000)
    finally:
        await page.close()


async def test_stale_csrf_token_is_session_expired(
    club: IndicoClient, indico_server: IndicoServer
) -> None:
    """Indico checks X-CSRF-Token on every non-GET; GETs work with any token."""
    stale = IndicoClient(club.context, indico_server.base_url, "stale-token")
    assert (await stale.refresh_user()).id == indico_server.club.id
    with pytest.raises(SessionLost) as err:
        await stale.cancel_booking(indico_server.bookings()[0].id)
    assert err.value.status == 400
    assert await club.my_bookings() is not None  # the real session is untouched
