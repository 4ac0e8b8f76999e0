"""«My bookings» read as the check after booking: a list is taken as soon as it shows
live every booking the session just made, though it may not be the whole list. On the
fast path that is the list's HTML (``listhtml``: read without the page's scripts); on a
page its scripts draw, the list as first drawn, before they fetched the rest of it (a
site such as Indico asks for the list in parts). Any other read, or a list that lacks one
of them, is the whole list, settled: a booking missed there would be made twice.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import structlog
from playwright.async_api import Page

from adapters.profile.bookings import MyList
from adapters.profile.navigate import Navigator
from adapters.profile.recall import Recall
from scenarios.booking.models import Booking

__all__ = ["confirmed", "confirming_drawn"]

log = structlog.get_logger("clubman.portal")


async def confirming_drawn(
    nav: Navigator, page: Page, recall: Recall, sent: Collection[str]
) -> list[Booking] | None:
    """The list as the page first draws it, buildings by the site's codes, if it shows
    every booking in ``sent`` live; else None (and for a list the page does not draw, or
    reaches only through a form)."""
    opened = nav.profile.my_bookings.open
    if not sent or opened.url is None or opened.wait is None:
        return None
    if opened.actions or opened.submit is not None:
        return None
    mine = MyList(nav, page, recall)
    await mine.open_drawn()
    return confirmed(await mine.known(), recall.buildings, sent)


def confirmed(
    found: list[Booking], buildings: Mapping[str, str], sent: Collection[str]
) -> list[Booking] | None:
    """``found`` with buildings by their codes (``buildings``: code → name), if it lists
    every booking in ``sent`` live; else None."""
    codes = {name: code for code, name in buildings.items()}
    if any(b.building_name not in codes for b in found):
        return None  # a building's code only the site's list of buildings says
    live = {b.number for b in found if b.is_live}
    if not set(sent) <= live:
        log.info("profile.confirm_skipped", why="a booking just made is not listed")
        return None
    return [b.model_copy(update={"building": codes[b.building_name]}) for b in found]
