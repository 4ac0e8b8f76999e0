"""A site whose save leads back to the day, no address carrying the new booking's number
(MRBS does; the portal's ``saved_to_day`` drift), through ``profiles/refportal.yaml`` with
``book.saved``: the booking is found in «my bookings» by what was sent, and is sent once —
also when the list cannot show it, then said plainly."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from core.browser import BrowserContext
from core.site import OutcomeUnconfirmed
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import (
    PROFILE,
    TODAY,
    active_bookings,
    profile_session,
    room_of,
    set_quirks,
)
from tests.portal.helpers import free_room
from tests.support.drift import page_path_only

pytestmark = pytest.mark.asyncio(loop_scope="session")

BOOKED = "  booked: ^/booking/(\\d+)$\n"


def _profile(*, fast: bool) -> str:
    text = PROFILE.read_text(encoding="utf-8")
    assert text.count(BOOKED) == 1
    text = text.replace(BOOKED, BOOKED + "  saved: ^/rooms$\n")
    return text if fast else page_path_only(text)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "pages"])
async def test_a_booking_saved_to_its_day_is_found_in_my_bookings_and_sent_once(
    fresh_portal: RunningPortal, context: BrowserContext, fast: bool
) -> None:
    await set_quirks(fresh_portal.url, drift=["saved_to_day"])
    day = TODAY + timedelta(days=1)
    room_id = await free_room(fresh_portal.url, "main", day, "18:00", "19:00")
    session = profile_session(fresh_portal, context, _profile(fast=fast))
    try:
        made = await session.book(
            room=room_of(room_id), day=day, start=time(18), end=time(19), purpose="Клуб #s1"
        )
    finally:
        await session.close()
    booked = await active_bookings(fresh_portal.url, user="club", purpose="Клуб #s1")
    assert [str(b["id"]) for b in booked] == [made.number]
    assert (made.room, made.day, made.start, made.end) == (
        room_id.rpartition("-")[2], day, time(18), time(19),
    )  # fmt: skip
    assert session.creates_sent == 1


async def test_a_booking_saved_to_its_day_that_the_list_cannot_show_is_not_sent_again(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    await set_quirks(fresh_portal.url, drift=["saved_to_day", "today_list"])
    day = TODAY + timedelta(days=3)
    room_id = await free_room(fresh_portal.url, "main", day, "18:00", "19:00")
    session = profile_session(fresh_portal, context, _profile(fast=False))
    try:
        with pytest.raises(OutcomeUnconfirmed) as caught:
            await session.book(
                room=room_of(room_id), day=day, start=time(18), end=time(19), purpose="Клуб #s2"
            )
    finally:
        await session.close()
    assert caught.value.room == room_id.rpartition("-")[2]
    assert "не показал её номер" in caught.value.message
    assert len(await active_bookings(fresh_portal.url, user="club", purpose="Клуб #s2")) == 1
    assert session.creates_sent == 1
