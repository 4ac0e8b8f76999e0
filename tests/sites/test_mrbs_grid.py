"""MRBS's day view read by the profile's grid (``adapters.profile.grid``): rooms across,
times down, a free cell an empty link, a booking one cell over its rows (the rows under it
shorter), the club's own marked ``writable``, a room's header «101<span>30</span>» read as
room 101 for 30, and the day in a heading outside the table guarding the day asked."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Any

import pytest
import yaml
from playwright.async_api import BrowserContext, Page

from adapters.profile.finding import Finder
from adapters.profile.grid import read_day
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from core.site.errors import UnexpectedPage
from scenarios.booking.models import Availability
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.sites.mrbs import AREAS, MrbsServer
from tests.sites.test_mrbs import MAIN, _log_in

on_session_loop = pytest.mark.asyncio(loop_scope="session")

# The day view as a profile describes it (docs/sites/mrbs-notes.md, «Day view»).
_GRID: dict[str, Any] = {
    "table": [{"css": "table#day_main"}],
    "rooms_in": "columns",
    "header_lines": 1,
    "room": {
        "number": {"css": "a", "without": ".capacity"},  # «101<span class=capacity>30</span>»
        "id": {"css": "@data-room"},
        "capacity": {"css": ".capacity", "format": "int"},
    },
    "slot": {
        "time": {"of": "header", "css": "@data-seconds", "format": "seconds"},
        "free": {"has": "a[href*='edit_entry.php']"},
        "mine": {"has": "div.writable"},
    },
    "caption_date": {"css": ".date_heading h2.date", "format": "long"},
}
_RULES = {"opens": "08:00", "closes": "21:00", "step_minutes": 30, "longest_minutes": None,
          "horizon_days": 30}  # fmt: skip


def _navigator(base_url: str, day_url: str) -> Navigator:
    profile = yaml.safe_load(TEXT)  # the reference portal's, its day and rules MRBS's
    profile["rules"] = _RULES
    profile["availability"] = {"open": {"url": day_url}, "grid": _GRID}
    loaded = parse_site_profile(yaml.safe_dump(profile, allow_unicode=True), FILE)
    return Navigator(loaded, base_url, Finder(loaded), timeout_ms=15_000)


async def _logged_in(mrbs: MrbsServer, context: BrowserContext, area: int) -> Page:
    page = await context.new_page()
    await page.goto(f"{mrbs.base_url}/index.php?view=day&area={area}")
    await _log_in(page, mrbs.club)
    return page


async def _day(page: Page, nav: Navigator, area: int, day: date) -> Availability:
    return await read_day(nav, page, building=str(area), name=MAIN, day=day, timeout_ms=15_000)


@on_session_loop
async def test_mrbs_day_is_read_rooms_capacities_others_and_the_clubs_bookings(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    day = mrbs_server.seeded_on + timedelta(days=1)  # the seed: 102 10:00–12:00, 104 18:00–19:30
    mrbs_server.add_booking(
        "103", mrbs_server.at(day, "12:00"), mrbs_server.at(day, "13:00"), "Клуб", user="club"
    )
    area = mrbs_server.room("101").area_id
    page = await _logged_in(mrbs_server, context, area)
    nav = _navigator(
        mrbs_server.base_url, "/index.php?view=day&page_date={date|iso}&area={building}"
    )

    read = await _day(page, nav, area, day)

    assert (read.day, read.opens, read.closes) == (day, time(8), time(21))
    assert [(r.room.number, r.room.capacity) for r in read.rooms] == [
        (name, capacity) for name, capacity, _ in AREAS[MAIN]
    ]
    assert [r.room.id for r in read.rooms] == [
        str(mrbs_server.room(n).id) for n, _, _ in AREAS[MAIN]
    ]
    by_number = {r.room.number: r for r in read.rooms}
    assert by_number["102"].busy == [(time(10), time(12))] and by_number["102"].mine == []
    assert by_number["104"].busy == [(time(18), time(19, 30))] and by_number["104"].mine == []
    assert by_number["103"].busy == by_number["103"].mine == [(time(12), time(13))]
    assert by_number["101"].busy == by_number["105"].busy == []
    # Under 102's booking the rows have a cell fewer: 103's cells there are 103's.
    assert by_number["103"].is_free(time(10), time(12))


@on_session_loop
async def test_mrbs_day_showing_another_day_than_asked_is_not_read(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    # An address that forgets the day: MRBS shows today, its heading says so.
    area = mrbs_server.room("101").area_id
    page = await _logged_in(mrbs_server, context, area)
    nav = _navigator(mrbs_server.base_url, "/index.php?view=day&area={building}")
    asked = mrbs_server.today() + timedelta(days=1)
    with pytest.raises(UnexpectedPage, match="другой день"):
        await _day(page, nav, area, asked)
    today = await _day(page, nav, area, mrbs_server.today())
    assert [r.room.number for r in today.rooms] == [name for name, _, _ in AREAS[MAIN]]
