"""«My bookings» read from its page's HTML, without a browser: the fast path's check
after booking, on a site whose list is a table the server writes (the reference portal's
«Мои брони»; the legacy site's, behind its search form, whose GET address is worked out
from the form's HTML by ``formhtml``).

A page is what its scripts and style sheets make of the HTML, and this read sees
neither. So it stands only as a confirmation (``confirm``): the list is taken when it
shows live every booking the session itself just made, the bookings a run checks for.
Its rows are the account's own only (``owner``), as on the page.
"""

from __future__ import annotations

from collections.abc import Collection

import structlog
from playwright.async_api import APIRequestContext

from adapters.profile.confirm import confirmed
from adapters.profile.formhtml import submitted_address
from adapters.profile.htmltable import table_in_html
from adapters.profile.login import asks_login_in
from adapters.profile.model import Open
from adapters.profile.navigate import Navigator
from adapters.profile.owner import no_owner_read, whose
from adapters.profile.pagehtml import PageHtml, fetch_html
from adapters.profile.parts import Find, Locator
from adapters.profile.reading import cell_probes_of, probes_of, value
from adapters.profile.recall import Recall
from adapters.profile.rows import columns_of, list_picks, row_picks, rows_of, shown_in_row
from adapters.profile.statichtml import shown_as_sent
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
        or any(pick.of == "address" for pick in spec.number)  # numbers only a click shows
    ):
        return None
    table = spec.table

    async def listed_at(where: str) -> list[Booking] | None:
        got = await fetch_html(api, where)
        if got is None or asks_login_in(nav, got.text):
            return None  # logged out: the page's read logs in again
        return _listed(nav, table, got.text, recall, sent)

    address = nav.url(opened.url, {})
    if not (opened.actions or opened.submit is not None):
        return await listed_at(address)
    # A search form: its answer's page, at the address it led to before (one request
    # fewer), else worked out from the form's HTML when no script may change what it
    # sends. A list that does not confirm from a remembered address is looked up anew.
    if (known := recall.searched.get(address)) is not None:
        if (listed := await listed_at(known)) is not None:
            return listed
        recall.searched.pop(address, None)  # another session may have dropped it meanwhile
    form = await fetch_html(api, address)
    if form is not None and asks_login_in(nav, form.text):
        return None  # the login form, not the search's (whose address it would work out)
    searched = _searched(nav, opened, form, address) if form is not None else None
    listed = None if searched is None else await listed_at(searched)
    if searched is not None and listed is not None:
        recall.searched[address] = searched
    return listed


def _listed(
    nav: Navigator, table_find: Find, html: str, recall: Recall, sent: Collection[str]
) -> list[Booking] | None:
    """The list in ``html``, if it lists every booking in ``sent`` live; else None."""
    spec = nav.profile.my_bookings
    picked = list_picks(spec)
    table = table_in_html(
        html, nav.finder.way(table_find), probes=cell_probes_of(picked),
        line_probes=probes_of(picked),
    )  # fmt: skip
    if table is None or not table.grid:
        return None
    columns = columns_of(table)
    found = []
    unnumbered = 0
    # One cell across is no booking: «Нет броней».
    rows = [(line, cells) for _, line, cells in rows_of(table) if len({*map(id, cells)}) > 1]
    picks = row_picks(spec, rows, columns, told=nav.finder)
    owners = [whose(picks, line, cells, columns, account=recall.account) for line, cells in rows]
    if no_owner_read(owners):
        return None  # the page's read says what changed
    for (line, cells), owner in zip(rows, owners, strict=True):
        if owner != "account":
            continue  # another's, found by a search naming the login; or nobody's
        number = value(picks.number, line, columns=columns, row=cells)
        if not number:
            unnumbered += 1
            continue
        shown = shown_in_row(picks, line, cells, columns)
        if shown.booking is None:
            continue  # a row of its own form (made by hand): not one the session sent
        booking = shown.booking.model_copy(update={"number": number})
        if shown.partial:
            completed = recall.pages.complete(booking, unshown=shown.missing)
            if completed is None:
                return None  # its room only its own page shows
            booking = completed
        found.append(booking)
    if not found:
        return None  # no row read: the page's way says what changed
    return confirmed(found, recall.buildings, sent)


def _searched(nav: Navigator, opened: Open, page: PageHtml, address: str) -> str | None:
    """Where the page's GET form leads with the profile's actions done: each fills or
    chooses a field, then ``submit`` is pressed; None for anything else, or on a page
    that is not its HTML (a script may change what the form sends)."""
    if opened.submit is None or not shown_as_sent(page.text):
        return None
    fields: list[tuple[Locator, str]] = []
    for action in opened.actions:
        typed = action.fill if action.fill is not None else action.select
        if typed is None:
            return None  # a tick, a click, an option by its label: the page does it
        text = typed.render({})
        if text or not action.optional:
            fields.append((nav.finder.way(action.find), text))
    submit = nav.finder.way(opened.submit)
    # A page naming no charset sends non-ASCII text in one the browser guesses: no address.
    return submitted_address(page.text, address, fields, submit, encoding=page.charset)
