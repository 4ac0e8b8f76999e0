"""The fast path (issue 29) on a real Indico 3.2.9: ``profiles/indico.yaml`` books by the
JSON call Indico's own «Create Booking» makes (the CSRF token from the page's ``<meta>``
in a header, the room by Indico's key from its room list), the booking search page never
loaded in the browser; a refusal, and a room the site's list does not have, are booked
the page's way. Every booking is checked in Indico's database."""

from __future__ import annotations

import asyncio
from datetime import datetime, time, timedelta

import pytest
from playwright.async_api import BrowserContext

from adapters.profile.session import ProfileSession
from core.site.models import Room
from scenarios.booking.errors import SlotTaken
from tests.adapters.indico.profile_harness import pages_asked, profile_session
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _free_room(session: ProfileSession, server: IndicoServer, start: int) -> Room:
    day = server.today() + timedelta(days=8)
    return (await session.availability("7", day)).free_rooms(time(start), time(start + 1))[0]


async def _held(server: IndicoServer, reason: str) -> list[int]:
    """The ids of the live bookings with ``reason`` in Indico's database."""
    rows = await asyncio.to_thread(server.bookings)
    return [b.id for b in rows if b.reason == reason and b.state in ("pending", "accepted")]


async def test_a_booking_by_indicos_own_call_never_loads_the_search_page(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    session = profile_session(indico_server, context)
    day = indico_server.today() + timedelta(days=8)
    try:
        room = await _free_room(session, indico_server, 9)
        seen = pages_asked(context)
        made = await session.book(room=room, day=day, start=time(9), end=time(10), purpose="j #j1")
    finally:
        await session.close()
    assert not any("rooms/book" in r or "booking/create" in r for r in seen), seen
    assert (made.room, made.start, made.purpose) == (room.number, time(9), "j #j1")
    assert await _held(indico_server, "j #j1") == [int(made.number)]


async def test_a_refused_call_is_booked_through_the_pages_which_find_the_room_taken(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    session = profile_session(indico_server, context)
    day = indico_server.today() + timedelta(days=8)
    try:
        room = await _free_room(session, indico_server, 11)
        site_room = await asyncio.to_thread(indico_server.room, room.id)
        await asyncio.to_thread(
            indico_server.add_booking,
            site_room.id,
            datetime.combine(day, time(11)),
            datetime.combine(day, time(12)),
        )
        seen = pages_asked(context)
        with pytest.raises(SlotTaken):
            await session.book(room=room, day=day, start=time(11), end=time(12), purpose="j #j2")
    finally:
        await session.close()
    assert any("rooms/book" in r for r in seen), seen  # the search, after Indico's refusal
    assert await _held(indico_server, "j #j2") == []


async def test_a_room_the_sites_list_does_not_name_is_booked_through_the_pages(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    # The list's field is misnamed: no room has a key, so nothing goes the fast way.
    misnamed = ("name: full_name, key: id}", "name: fullname, key: id}")
    session = profile_session(indico_server, context, misnamed)
    day = indico_server.today() + timedelta(days=8)
    try:
        room = await _free_room(session, indico_server, 13)
        seen = pages_asked(context)
        made = await session.book(room=room, day=day, start=time(13), end=time(14), purpose="j #j3")
    finally:
        await session.close()
    assert any("rooms/book" in r for r in seen), seen
    assert await _held(indico_server, "j #j3") == [int(made.number)]
    # What was made is read off the details «Create Booking» led to, not loaded again.
    documents = [r for r in seen if r.startswith("GET rooms/") and "/api/" not in r]
    assert not any(r.startswith("GET rooms/calendar") for r in documents), documents
    assert (made.room, made.day, made.start, made.end, made.purpose) == (
        room.number, day, time(13), time(14), "j #j3"
    )  # fmt: skip
