"""The booking just made, as the run keeps it: read from the page the form led to (or
from its own page), or, when the site's answer to the form's own request named it (the
fast path), as it was sent — the site vouched for it, and «my bookings» still shows
whether it holds it (the booking scenario's verify step)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import date, time

from playwright.async_api import Page

from adapters.profile.bookingpage import read_booking_page, shown_instead
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


async def read_made(
    nav: Navigator,
    page: Page,
    number: str,
    codes: Mapping[str, str],
    *,
    sent: Booking | None = None,
) -> Booking:
    """Booking ``number`` read where the form led, if that shows it and it reads there;
    else from its page, loaded. ``codes``: building name → code. On a page its scripts
    draw, the booking is taken as first drawn when it shows just what was ``sent`` (as
    «my bookings» is after booking), else read once the page settled."""
    if not _at_made(nav, page, number):
        return await read_booking_page(nav, page, number, codes)
    spec = nav.profile.booking_page
    if (
        sent is not None
        and spec.wait is not None
        and await nav.shows_early(
            page, spec.wait, spec.wait, path="booking_page.wait", instead=shown_instead(spec)
        )
    ):
        with contextlib.suppress(UnexpectedPage):
            drawn = await read_booking_page(nav, page, number, codes, load=False)
            if drawn.is_live and _as_sent(drawn) == _as_sent(sent):
                return drawn
    if spec.wait is None or await _settled_shows(nav, page):
        with contextlib.suppress(UnexpectedPage):
            return await read_booking_page(nav, page, number, codes, load=False)
    return await read_booking_page(nav, page, number, codes)


def _at_made(nav: Navigator, page: Page, number: str) -> bool:
    """The page the form led to is booking ``number``'s: at the booking's page, or at an
    address the profile reads this number from (on Indico, the search page with the
    booking's details over it)."""
    spec = nav.profile.booking_page
    at_page = nav.url_path(spec.url, {"number": number}) == path_of(page)
    return at_page or booked_number(nav.profile.book.booked, page.url) == number


async def _settled_shows(nav: Navigator, page: Page) -> bool:
    """What a page its scripts draw waits for is there once its fetches are done."""
    wait = nav.profile.booking_page.wait
    assert wait is not None
    await nav.settle(page)
    return await nav.finder.showing(page, wait, path="booking_page.wait")


def _as_sent(booking: Booking) -> tuple[object, ...]:
    """What of a booking was sent: its place, day, times and purpose (spacing aside)."""
    purpose = " ".join(booking.purpose.split())
    return (booking.building, booking.room, booking.day, booking.start, booking.end, purpose)
