"""«My bookings» as a profile session read them (``adapters.profile.known``), on the
reference portal in a real Chromium: the read before booking is answered by the read a
moment before it, with only reads between; a booking or a cancel makes the next read ask
the site, so what is checked after them is the site's list."""

from __future__ import annotations

from datetime import time
from pathlib import Path

import pytest
from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.session import ProfileSession
from portal.server import RunningPortal
from scenarios.booking.models import Booking
from tests.adapters.refportal.helpers import FAST, FRIDAY

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"


def _session(portal: RunningPortal, context: BrowserContext) -> ProfileSession:
    system = ProfileSystem(portal.url, load_site_profile(PROFILE), retry=FAST)
    return system.open_session(context, username="club", password="club-demo")


def _list_loads(context: BrowserContext) -> list[str]:
    """Every «my bookings» page the browser loads from now on."""
    loads: list[str] = []

    def note(request: Request) -> None:
        if request.is_navigation_request() and request.url.split("?")[0].endswith("/my"):
            loads.append(request.url)

    context.on("request", note)
    return loads


def _live(bookings: list[Booking]) -> set[str]:
    return {b.number for b in bookings if b.is_live}


async def test_a_booking_run_asks_the_site_for_its_list_at_the_login_and_after_booking(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    """As the booking scenario asks: are any rooms ours already, the day's grid, booked
    before a restart?, the booking, and is it listed?"""
    session = _session(fresh_portal, context)
    try:
        await session.ensure_logged_in()
        loads = _list_loads(context)
        ours = await session.my_bookings()
        room = (await session.availability("main", FRIDAY)).free_rooms(time(12), time(13))[0]
        before_booking = await session.my_bookings()
        made = await session.book(
            room=room, day=FRIDAY, start=time(12), end=time(13), purpose="known · #k1"
        )
        after_booking = await session.my_bookings()
    finally:
        await session.close()
    assert len(loads) == 1, loads  # after the booking: the one before it was answered as read
    assert before_booking == ours
    assert made.number not in _live(before_booking)
    assert made.number in _live(after_booking)


async def test_a_cancel_makes_the_next_read_ask_the_site(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    session = _session(fresh_portal, context)
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
