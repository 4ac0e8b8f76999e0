"""«My bookings» as a profile session read them (``adapters.profile.known``), on the
reference portal in a real Chromium: the read before booking is answered by the read a
moment before it, with only reads between; a booking or a cancel makes the next read ask
the site, so what is checked after them is the site's list (after a booking on the fast
path, the list's HTML: ``adapters.profile.listhtml``)."""

from __future__ import annotations

from datetime import time

import pytest
from playwright.async_api import BrowserContext

from portal.server import RunningPortal
from scenarios.booking.models import Booking
from tests.adapters.refportal.helpers import FRIDAY, page_loads, profile_session

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _live(bookings: list[Booking]) -> set[str]:
    return {b.number for b in bookings if b.is_live}


async def test_a_booking_run_asks_the_site_for_its_list_at_the_login_and_after_booking(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    """As the booking scenario asks: are any rooms ours already, the day's grid, booked
    before a restart?, the booking, and is it listed?"""
    session = profile_session(fresh_portal, context)
    try:
        await session.ensure_logged_in()
        loads = page_loads(context, lambda url: url.split("?")[0].endswith("/my"))
        ours = await session.my_bookings()
        room = (await session.availability("main", FRIDAY)).free_rooms(time(12), time(13))[0]
        before_booking = await session.my_bookings()
        made = await session.book(
            room=room, day=FRIDAY, start=time(12), end=time(13), purpose="known · #k1"
        )
        after_booking = await session.my_bookings()
    finally:
        await session.close()
    assert loads == []  # before booking: answered as read; after it: the list's HTML
    assert before_booking == ours
    assert made.number not in _live(before_booking)
    assert made.number in _live(after_booking)


async def test_a_cancel_makes_the_next_read_ask_the_site(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    session = profile_session(fresh_portal, context)
    try:
        await session.ensure_logged_in()
        room = (await session.availability("main", FRIDAY)).free_rooms(time(14), time(15))[0]
        made = await session.book(
            room=room, day=FRIDAY, start=time(14), end=time(15), purpose="known · #k2"
        )
        listed = await session.my_bookings()
        await session.cancel(made.number)
        after_cancel = await session.my_bookings()
    finally:
        await session.close()
    assert made.number in _live(listed)
    assert made.number not in _live(after_cancel)
