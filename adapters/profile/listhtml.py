"""«My bookings» read from its page's HTML, without a browser: the fast path's check
after booking, on a site whose list is a table the server writes (the reference portal's
«Мои брони»).

A page is what its scripts and style sheets make of the HTML, and this read sees
neither. So it stands only as a confirmation: the list is taken when it shows live every
booking the session itself just made, the bookings a run checks for. Any other read (a
look for a run's bookings before booking, where a row missed would be a booking made
twice), a list that lacks one of them, or one it cannot read so, goes to the page.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import structlog
from playwright.async_api import APIRequestContext
from playwright.async_api import Error as PlaywrightError

from adapters.profile.htmltable import table_in_html
from adapters.profile.navigate import Navigator
from adapters.profile.reading import probes_of, value
from adapters.profile.recall import Recall
from adapters.profile.rows import columns_of, list_picks, rows_of, shown_in_row
from scenarios.booking.models import Booking

__all__ = ["confirming_list"]

log = structlog.get_logger("clubman.portal")


async def confirming_list(
    nav: Navigator, api: APIRequestContext, recall: Recall, sent: Collection[str]
) -> list[Booking] | None:
    """The list as its HTML shows it, buildings by the site's codes, if it lists every
    booking in ``sent`` live; else None."""
    spec = nav.profile.my_bookings
    opened = spec.open
    if (
        not sent
        or spec.table is None  # items: cards a page's scripts tend to draw
        or opened.url is None
        or opened.wait is not None  # drawn by its scripts
        or opened.actions
        or opened.submit is not None
        or spec.number.of == "address"  # numbers only a click shows
    ):
        return None
    try:
        answer = await api.get(nav.url(opened.url, {}), max_redirects=0)
        html = await answer.text() if answer.ok else ""
    except PlaywrightError:
        return None
    probes = probes_of(list_picks(spec))
    table = table_in_html(html, nav.finder.way(spec.table), line_probes=probes)
    if table is None or not table.grid:
        return None
    columns = columns_of(table)
    found = []
    for _, line, cells in rows_of(table):
        if len({id(cell) for cell in cells}) < 2:
            continue  # one cell across: «Нет броней»
        number = value(spec.number, line, columns=columns, row=cells)
        if not number:
            continue
        shown = shown_in_row(spec, line, cells, columns)
        if shown.booking is None:
            return None
        booking = shown.booking.model_copy(update={"number": number})
        if shown.partial:
            completed = recall.pages.complete(booking)
            if completed is None:
                return None  # its room only its own page shows
            booking = completed
        found.append(booking)
    return _confirmed(found, recall.buildings, sent)


def _confirmed(
    found: list[Booking], buildings: Mapping[str, str], sent: Collection[str]
) -> list[Booking] | None:
    codes = {name: code for code, name in buildings.items()}
    if any(b.building_name not in codes for b in found):
        return None  # a building's code only the site's list of buildings says
    live = {b.number for b in found if b.is_live}
    if not set(sent) <= live:
        log.info("profile.list_html_skipped", why="a booking just made is not listed")
        return None
    return [b.model_copy(update={"building": codes[b.building_name]}) for b in found]
