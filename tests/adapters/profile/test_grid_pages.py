"""A grid's day and the rules on small real pages in a real Chromium: the day a heading
outside the table shows still guards the day asked (the page's and its HTML's read alike,
the table's own caption first), and a site with no longest booking lets one last from
opening to closing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, time
from typing import Any

import pytest
import pytest_asyncio
import yaml
from aiohttp import web

from adapters.profile.finding import Finder
from adapters.profile.grid import read_buildings, read_catalogue, read_day
from adapters.profile.gridhtml import day_in_html
from adapters.profile.loader import ProfileInvalid, parse_site_profile
from adapters.profile.model import RulesPart
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool
from core.browser.retry import Bounced
from core.site.errors import UnexpectedPage
from scenarios.booking.slots import check_booking
from tests.adapters.profile.profile_text import FILE, TEXT, edited
from tests.adapters.profile.served import served

ASYNC = pytest.mark.asyncio(loop_scope="session")

SHOWN = date(2026, 12, 8)
_ROOMS = """<html><body><select name=building><option value=main>Главный</option></select>
</body></html>"""
# The day in a heading over the table (as MRBS: «вторник, 8 декабря 2026 г.»), or in the
# table's caption with another day's heading beside it.
_DAY = """<html><body>{heading}<table class=grid>{caption}
<tr><th>Аудитория</th><th>09:00</th><th>10:00</th></tr>
<tr><th>101</th><td><a href="/book">+</a></td><td>Занято</td></tr>
<tr><th>102</th><td><a href="/book">+</a></td><td><a href="/book">+</a></td></tr>
</table></body></html>"""
_HEADING = "<div class=date_heading><h2 class=date>вторник, {day} декабря 2026 г.</h2></div>"
# Its session ended, the site answers HTTP 200 with the login form drawn in place, over the
# day shown read-only: no link to book anything.
_LOGGED_OUT = f"""<html><body><form id=logon method=post action=/out><input name=username>
<input name=password type=password><input type=submit value="Войти"></form>
{_HEADING.format(day=SHOWN.day)}
<table class=grid><tr><th>Аудитория</th><th>09:00</th><th>10:00</th></tr>
<tr><th>101</th><td></td><td>Занято</td></tr><tr><th>102</th><td></td><td></td></tr>
</table></body></html>"""
_GRID: dict[str, Any] = {
    "table": [{"css": "table.grid"}],
    "room": {"number": {}},
    "slot": {"time": {"of": "header", "format": "hhmm"}, "free": {"has": "a[href]"}},
    "caption_date": {"css": ".date", "format": "long"},
}


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def site() -> AsyncIterator[str]:
    def html(text: str) -> web.Response:
        return web.Response(text=text, content_type="text/html")

    async def rooms(_: web.Request) -> web.Response:
        return html(_ROOMS)

    async def day(request: web.Request) -> web.Response:
        if request.query.get("caption"):  # the table's own caption, another day's heading
            return html(
                _DAY.format(heading=_HEADING.format(day=9), caption="<caption class=date>"
                            f"{request.query['caption']}</caption>")
            )  # fmt: skip
        return html(_DAY.format(heading=_HEADING.format(day=SHOWN.day), caption=""))

    async def logged_out(_: web.Request) -> web.Response:
        return html(_LOGGED_OUT)

    app = web.Application()
    app.router.add_get("/rooms", rooms)
    app.router.add_get("/day", day)
    app.router.add_get("/out", logged_out)
    async with served(app) as url:
        yield url


def _navigator(
    url: str, *, day_url: str = "/day?date={date|iso}", shown: str = "", **rules: Any
) -> Navigator:
    profile = yaml.safe_load(TEXT)  # the reference portal's, with this day and these rules
    if shown:
        profile["login"]["shown"] = [{"css": shown}]
    profile["catalogue"]["buildings"] = {"open": {"url": "/rooms"}, "select": [{"css": "select"}]}
    profile["availability"] = {"open": {"url": day_url}, "grid": _GRID}
    profile["rules"] = {"opens": "09:00", "closes": "21:00", "step_minutes": 60, **rules}
    loaded = parse_site_profile(yaml.safe_dump(profile, allow_unicode=True), FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=10_000)


@ASYNC
async def test_a_day_in_a_heading_outside_the_table_guards_the_day_asked(
    site: str, pool: BrowserPool
) -> None:
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        read = await read_day(nav, page, building="main", name="Главный", day=SHOWN,
                              timeout_ms=10_000)  # fmt: skip
        assert [(r.room.number, r.busy) for r in read.rooms] == [
            ("101", [(time(10), time(11))]),
            ("102", []),
        ]
        from_html = await day_in_html(nav, context.request, building="main", name="Главный",
                                      day=SHOWN)  # fmt: skip
        assert from_html == read
        other = date(2026, 12, 9)
        with pytest.raises(UnexpectedPage, match="другой день: 2026-12-08"):
            await read_day(nav, page, building="main", name="Главный", day=other,
                           timeout_ms=10_000)  # fmt: skip
        assert await day_in_html(nav, context.request, building="main", name="Главный",
                                 day=other) is None  # fmt: skip


@ASYNC
async def test_the_tables_own_caption_comes_before_a_heading_on_the_page(
    site: str, pool: BrowserPool
) -> None:
    nav = _navigator(site, day_url="/day?caption={date|long}")  # the heading says the 9th
    async with pool.context() as context:
        page = await context.new_page()
        read = await read_day(nav, page, building="main", name="Главный", day=SHOWN,
                              timeout_ms=10_000)  # fmt: skip
        assert read.day == SHOWN and len(read.rooms) == 2
        from_html = await day_in_html(nav, context.request, building="main", name="Главный",
                                      day=SHOWN)  # fmt: skip
        assert from_html == read


@ASYNC
async def test_no_longest_booking_lets_one_last_from_opening_to_closing(
    site: str, pool: BrowserPool
) -> None:
    nav = _navigator(site, longest_minutes=None)
    async with pool.context() as context:
        page = await context.new_page()
        names = await read_buildings(nav, page)
        catalogue = await read_catalogue(nav, page, names, day=SHOWN, timeout_ms=10_000)
    assert nav.profile.rules.longest_minutes is None
    assert catalogue.rules.longest_minutes == 12 * 60  # 09:00–21:00
    whole_day = {"building": "main", "room": ["101"], "date": SHOWN, "start": time(9),
                 "end": time(21)}  # fmt: skip
    assert check_booking(whole_day, "ru", today=SHOWN, catalogue=catalogue) is None
    stated = catalogue.model_copy(
        update={"rules": catalogue.rules.model_copy(update={"longest_minutes": 240})}
    )
    assert check_booking(whole_day, "ru", today=SHOWN, catalogue=stated) == (
        "end", "Бронь не длиннее 4 часов"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("written", "longest"),
    [("longest_minutes: null", None), ("longest_minutes: ~", None), ("", 240)],
)
def test_no_longest_booking_is_written_null(written: str, longest: int | None) -> None:
    text = edited("  longest_minutes: 240\n", f"  {written}\n" if written else "")
    rules = parse_site_profile(text, FILE).profile.rules
    assert rules.longest_minutes == longest
    assert rules.longest == (longest or 14 * 60)  # the reference portal is open 08:00–22:00


def test_a_longest_booking_of_zero_minutes_is_refused() -> None:
    with pytest.raises(ProfileInvalid, match="longest_minutes"):
        parse_site_profile(edited("  longest_minutes: 240\n", "  longest_minutes: 0\n"), FILE)
    assert RulesPart(longest_minutes=None, opens=time(8), closes=time(21, 30)).longest == 810


@ASYNC
async def test_the_login_form_in_place_over_a_read_only_day_is_no_day_on_the_fast_path(
    site: str, pool: BrowserPool
) -> None:
    # Issue 66: an ended session's day (HTTP 200, the form over it, nothing to book) read
    # from its HTML would be «нет свободных»; it is none, and the page, drawn, bounces to
    # logging in again.
    nav = _navigator(site, day_url="/out?date={date|iso}", shown="form#logon")
    async with pool.context() as context:
        assert await day_in_html(nav, context.request, building="main", name="Главный",
                                 day=SHOWN) is None  # fmt: skip
        page = await context.new_page()
        with pytest.raises(Bounced):
            await read_day(nav, page, building="main", name="Главный", day=SHOWN,
                           timeout_ms=10_000)  # fmt: skip
    # Without ``login.shown`` the profile cannot tell it: read as the page shows it.
    unaware = _navigator(site, day_url="/out?date={date|iso}")
    async with pool.context() as context:
        read = await day_in_html(unaware, context.request, building="main", name="Главный",
                                 day=SHOWN)  # fmt: skip
    assert read is not None and not read.free_rooms(time(9), time(10))
