"""A building's day read from its grid page's HTML, without a browser: the fast path of a
site whose server writes the whole grid (an older site with no call for its day).

It is taken only from a page that is its HTML (``statichtml``: nothing runs in it, no
style sheet hides text), found by the profile's own table locator and read as the page
would be, the caption's day checked (in the table, or anywhere on the page). Anything
else gives None and the page is read as before: a page its scripts draw or change, a
redirect (a login, a notice), the login form drawn in place (``login.shown``), a grid the
profile does not fit. A slot read wrong still
books nothing twice: the site refuses a taken one, and every booking is checked in «my
bookings» after it.
"""

from __future__ import annotations

from datetime import date

from playwright.async_api import APIRequestContext
from selectolax.lexbor import LexborHTMLParser

from adapters.profile.grid import day_of, grid_reads
from adapters.profile.htmltable import page_in_html, table_in_html
from adapters.profile.login import asks_login_in
from adapters.profile.navigate import Navigator
from adapters.profile.pagehtml import fetch_html
from adapters.profile.statichtml import shown_as_sent
from scenarios.booking.models import Availability

__all__ = ["day_in_html"]


async def day_in_html(
    nav: Navigator, api: APIRequestContext, *, building: str, name: str, day: date
) -> Availability | None:
    """``building``'s grid on ``day`` as its page's HTML shows it, or None (the page's
    turn)."""
    spec = nav.profile.availability
    grid, opened = spec.grid, spec.open
    if (
        grid is None  # a timeline: drawn by its scripts
        or opened.url is None
        or opened.wait is not None
        or opened.actions
        or opened.submit is not None
    ):
        return None
    address = nav.url(opened.url, {"building": building, "date": day})
    page = await fetch_html(api, address)
    if page is None:
        return None
    tree = LexborHTMLParser(page.text)
    if not shown_as_sent(page.text, tree) or asks_login_in(nav, tree):
        return None  # the login form over a read-only day is no day with nothing free
    reads = grid_reads(grid)
    table = table_in_html(
        tree,
        nav.finder.way(grid.table),
        probes=reads.probes,
        has=reads.has,
        line_probes=reads.line_probes,
        self_probes=reads.self_probes,
    )
    heading = page_in_html(tree, reads.page_probes)
    if table is None or heading is None:
        return None
    read = day_of(nav, table, building=building, name=name, day=day, page=heading)
    return read if isinstance(read, Availability) else None
