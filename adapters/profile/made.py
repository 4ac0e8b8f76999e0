"""The booking just made, as the run keeps it: read from the page the form led to (or
from its own page), or, when the site's answer to the form's own request named it (the
fast path), as it was sent — the site vouched for it, and «my bookings» still shows
whether it holds it (the booking scenario's verify step)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import date, time

from playwright.async_api import Page

from adapters.profile.bookingpage import read_booking_page
from adapters.profile.form import booked_number
from adapters.profile.navigate import Navigator, path_of
from core.site import Room, UnexpectedPage
from scenarios.booking.models import Booking

__all__ = ["as_sent", "read_made"]


def as_sent(
    number: str,
    room: Room,
    day: date,
    start: time,
    end: time,
    purpose: str,
    *,
    buildings: Mapping[str, str],
) -> Booking:
    """Booking ``number`` as the request asked for it; ``buildings``: code → name."""
    return Booking(
        number=number,
        building=room.building,
        building_name=buildings.get(room.building, room.building),
        room=room.number,
        day=day,
        start=start,
        end=end,
        purpose=purpose,
    )


async def read_made(nav: Navigator, page: Page, number: str, codes: Mapping[str, str]) -> Booking:
    """Booking ``number`` read where the form led, if that shows it and it reads there;
    else from its page, loaded. ``codes``: building name → code."""
    if await _shows_made(nav, page, number):
        with contextlib.suppress(UnexpectedPage):
            return await read_booking_page(nav, page, number, codes, load=False)
    return await read_booking_page(nav, page, number, codes)


async def _shows_made(nav: Navigator, page: Page, number: str) -> bool:
    """The page the form led to shows booking ``number``: it is at the booking's page, or
    at an address the profile reads this number from (on Indico, the search page with
    the booking's details over it), and what a page its scripts draw waits for is
    there once its fetches are done."""
    spec = nav.profile.booking_page
    at_page = nav.url_path(spec.url, {"number": number}) == path_of(page)
    if not at_page and booked_number(nav.profile.book.booked, page.url) != number:
        return False
    if spec.wait is None:
        return True
    await nav.settle(page)
    return await nav.finder.maybe(page, spec.wait) is not None
