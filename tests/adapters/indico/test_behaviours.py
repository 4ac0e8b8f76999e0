"""What Indico does that the contract does not name: its refusals, approval rooms, races."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import time, timedelta

import pytest
import pytest_asyncio

from core.browser import BrowserPool
from core.site.models import Room
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.port import BookingSession
from tests.adapters.indico.harness import IndicoHarness
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def site(indico_server: IndicoServer) -> IndicoHarness:
    return IndicoHarness(indico_server)


@pytest_asyncio.fixture(loop_scope="session")
async def session(site: IndicoHarness, pool: BrowserPool) -> AsyncIterator[BookingSession]:
    async with pool.context() as context:
        opened = site.system.open_session(context, username=site.username, password=site.password)
        try:
            yield opened
        finally:
            await opened.close()


async def _room(session: BookingSession, number: str) -> Room:
    return next(r for r in (await session.catalogue()).rooms if r.number == number)


async def _refusal(
    site: IndicoHarness, session: BookingSession, room: Room, days: int, start: time, end: time
) -> str:
    # Indico counts days ahead from its process's date.today(), in its own zone (TZ).
    day = site.server.today() + timedelta(days=days)
    with pytest.raises(BookingRejected) as refused:
        await session.book(room=room, day=day, start=start, end=end, purpose="refused #r9")
    assert refused.value.code is not None
    return f"{refused.value.code}: {refused.value.message}"


async def test_beyond_the_rooms_horizon_is_too_far_in_indicos_words(
    session: BookingSession, site: IndicoHarness
) -> None:
    room = await _room(session, "705")
    assert room.horizon_days == 29  # max_advance_days 30 in the seed
    said = await _refusal(site, session, room, 30, time(10), time(11))
    assert said.startswith("too_far: ") and "30 days in advance" in said


async def test_spanning_midnight_outside_hours_and_the_past(
    session: BookingSession, site: IndicoHarness
) -> None:
    room = await _room(session, "706")
    assert (await _refusal(site, session, room, 8, time(23), time(1))).startswith("spans_midnight")
    assert (await _refusal(site, session, room, 8, time(6), time(7))).startswith("outside_hours")
    assert (await _refusal(site, session, room, -1, time(10), time(11))).startswith("in_past")


async def test_an_approval_room_is_marked_and_booked_as_pending(
    session: BookingSession, site: IndicoHarness
) -> None:
    room = await _room(session, "202")
    assert room.needs_approval
    day = site.server.today() + timedelta(days=9)
    booking = await session.book(
        room=room, day=day, start=time(12), end=time(13), purpose="approval #r5"
    )
    assert (booking.status, booking.room, booking.building) == ("pending", "202", "3")
    again = await session.book(
        room=room, day=day, start=time(12), end=time(13), purpose="approval #r5"
    )
    assert again.number == booking.number
    assert [b.live for b in await site.site_bookings("approval #r5")] == [True]


async def test_someone_booking_between_search_and_create_is_slot_taken(
    session: BookingSession, site: IndicoHarness
) -> None:
    day = site.server.today() + timedelta(days=7)
    free = await session.availability("7", day)
    room = free.free_rooms(time(14), time(16))[0]
    await site.book_as_someone_else(room, day, time(14), time(16))
    with pytest.raises(SlotTaken):
        await session.book(room=room, day=day, start=time(14), end=time(16), purpose="race #r6")
    assert await site.site_bookings("race #r6") == []
    shown = (await session.availability("7", day)).room(room.number)
    assert shown is not None and not shown.is_free(time(14), time(16))
