"""The profile's readers on the real MRBS's own pages (issue 66): «my bookings» as its
search shows it (the start in one cell with the date, no end, no room: those read from
each entry's page, rows of two ``<td>`` cells), the empty search's sentence with no table,
and a room's header with its capacity glued on, read ``without`` it. Logged in through
MRBS's form with plain Playwright; the readers then run on the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.async_api import BrowserContext, Page, expect

from adapters.profile.bookingpage import read_booking_page
from adapters.profile.bookings import MyList
from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Pick
from adapters.profile.reading import probes_of, read_table, value
from adapters.profile.recall import Recall
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.sites.mrbs import AREAS, MrbsServer
from tests.sites.test_mrbs import MAIN, _log_in

on_session_loop = pytest.mark.asyncio(loop_scope="session")

# MRBS's «my bookings» and entry's page, as docs/sites/mrbs-notes.md describes them.
_PARTS = r"""booking_page:
  url: /view_entry.php?id={number}
  building: {term: Помещение, regex: '^(.+?) - '}
  room: {term: Помещение, regex: ' - (\S+)$'}
  date: {term: Время начала, format: long}
  start: {term: Время начала, format: hhmm}
  end: {term: Время завершения, format: hhmm}
  purpose: {css: h3}

my_bookings:
  open:
    url: /search.php
  table:
    - css: table#search_results
  empty:
    - css: "#nothing_found"
  number: {column: Краткое описание, css: "a@href", regex: 'id=(\d+)'}
  date: {column: Время начала, format: long}
  start: {column: Время начала, format: hhmm}
  purpose: {column: Краткое описание}

"""


def _navigator(mrbs: MrbsServer) -> Navigator:
    start, end = TEXT.index("booking_page:\n"), TEXT.index("cancel:\n")
    text = TEXT[:start] + _PARTS + TEXT[end:].replace("at: booking_page", "at: my_bookings")
    loaded = parse_site_profile(text, FILE)
    return Navigator(loaded, mrbs.base_url, Finder(loaded), timeout_ms=15_000)


async def _my_bookings(mrbs: MrbsServer, context: BrowserContext) -> Page:
    """Logged in as the club, on MRBS's «my bookings» (its search), its rows drawn."""
    page = await context.new_page()
    await page.goto(f"{mrbs.base_url}/index.php")
    await _log_in(page, mrbs.club)
    async with page.expect_navigation():
        await page.locator("#show_my_entries input[type=submit]").click()
    drawn = page.locator("table#search_results tbody tr td a, #nothing_found")
    await expect(drawn.first).to_be_visible()
    return page


async def _codes(names: set[str]) -> dict[str, str]:
    return {name: str(i) for i, name in enumerate(AREAS, 1) if name in names}


@on_session_loop
async def test_the_clubs_bookings_are_read_from_the_search_and_each_entrys_page(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    day = mrbs_server.today() + timedelta(days=4)
    at = mrbs_server.at
    first = mrbs_server.add_booking("101", at(day, "18:00"), at(day, "20:00"), "Клуб: занятие",
                                    user="club")  # fmt: skip
    second = mrbs_server.add_booking("302", at(day, "09:30"), at(day, "11:00"), "Клуб: кружок",
                                     user="club")  # fmt: skip
    page = await _my_bookings(mrbs_server, context)
    mine = MyList(_navigator(mrbs_server), page, Recall(account="club"))
    await mine.read()
    found = await mine.in_full(_codes)
    assert mine.unread == ()
    got = {(b.number, b.building, b.building_name, b.room, b.day, b.start, b.end, b.purpose)
           for b in found}  # fmt: skip
    expected = set()
    for entry in (first, second):
        made = mrbs_server.booking(entry)
        assert made is not None
        code = str(list(AREAS).index(made.area) + 1)
        expected.add((str(entry), code, made.area, made.room, made.start.date(),
                      made.start.time(), made.end.time(), made.name))  # fmt: skip
    assert got == expected


@on_session_loop
async def test_an_entrys_page_reads_its_start_and_end_from_two_cell_rows(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    entry = next(b for b in mrbs_server.bookings() if b.name == "Лекция по физике")
    page = await _my_bookings(mrbs_server, context)  # logged in
    read = await read_booking_page(_navigator(mrbs_server), page, str(entry.id), {MAIN: "1"})
    assert (read.building, read.room, read.day, read.start, read.end, read.purpose) == (
        "1",
        "101",
        entry.start.date(),
        entry.start.time(),
        entry.end.time(),
        "Лекция по физике",
    )


@on_session_loop
async def test_no_booking_is_the_searchs_sentence_read_as_an_empty_list(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    page = await _my_bookings(mrbs_server, context)
    await expect(page.locator("#nothing_found")).to_have_text("Совпадений не найдено.")
    mine = MyList(_navigator(mrbs_server), page, Recall(account="club"))
    await mine.read()
    assert await mine.in_full(_codes) == []


@on_session_loop
async def test_a_rooms_header_reads_without_its_glued_capacity(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    page = await _my_bookings(mrbs_server, context)  # logged in
    area = mrbs_server.room("101").area_id
    await page.goto(f"{mrbs_server.base_url}/index.php?view=day&area={area}")
    whole, name = Pick(), Pick(css="a", without="span.capacity")
    headers = page.locator("table#day_main")
    table = await read_table(headers, probes=probes_of([whole, name]))
    rooms = [c for c in table.row(0) if c.text != "Время"]
    assert [value(name, c) for c in rooms] == [n for n, _, _ in AREAS[MAIN]]
    assert [value(whole, c) for c in rooms] == [f"{n}{c}" for n, c, _ in AREAS[MAIN]]
