"""The legacy-style site's pages read from the HTML its server sends, without a browser
(``adapters.profile.gridhtml``, ``statichtml``, ``listhtml`` with ``formhtml``): a
building's day is the day a real Chromium reads on the page, bookings of ours and others'
spanning rows included; a page something could change after it loads is not taken so; and
on a saved session the fast path books and confirms without loading any page, its list
the one the page shows behind the search form."""

from __future__ import annotations

from datetime import time
from typing import Any, cast
from urllib.parse import urlsplit

import aiohttp
import pytest
from playwright.async_api import APIRequestContext, APIResponse

from adapters.profile import ProfileSystem, load_site_profile, parse_site_profile
from adapters.profile.finding import Finder
from adapters.profile.grid import read_buildings, read_day
from adapters.profile.gridhtml import day_in_html
from adapters.profile.listhtml import confirming_list
from adapters.profile.navigate import Navigator
from adapters.profile.recall import Recall
from adapters.profile.statichtml import shown_as_sent
from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy
from tests.adapters.profile.legacy_harness import PROFILE, LegacyHarness
from tests.adapters.refportal.helpers import FAST, FRIDAY, page_loads
from tests.support.drift import page_path_only

ASYNC = pytest.mark.asyncio(loop_scope="session")

LOADED = load_site_profile(PROFILE)


@ASYNC
async def test_a_day_read_from_its_grids_html_is_the_day_the_page_shows(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    harness = LegacyHarness(fresh_legacy, pool)
    async with pool.context() as context:
        session = harness.system.open_session(context, username="club", password="club-demo")
        await session.ensure_logged_in()
        free = (await session.availability("1", FRIDAY)).free_rooms(time(10), time(12))
        await session.book(room=free[0], day=FRIDAY, start=time(10), end=time(12), purpose="#g1")
        await session.close()
        await harness.book_as_someone_else(free[1], FRIDAY, time(11), time(13, 30))
        nav = Navigator(LOADED, fresh_legacy.url, Finder(LOADED))
        page = await context.new_page()
        names = await read_buildings(nav, page)
        assert len(names) == 3
        for code, name in names.items():
            from_html = await day_in_html(
                nav, context.request, building=code, name=name, day=FRIDAY
            )
            in_page = await read_day(
                nav, page, building=code, name=name, day=FRIDAY, timeout_ms=15000
            )
            assert from_html == in_page
            assert from_html.rooms
        day = await day_in_html(nav, context.request, building="1", name=names["1"], day=FRIDAY)
        assert day is not None
        by_room = {slot.room.id: slot for slot in day.rooms}
        assert by_room[free[0].id].mine == [(time(10), time(12))]
        assert by_room[free[1].id].busy == [(time(11), time(13, 30))]
        assert by_room[free[1].id].mine == []


@ASYNC
async def test_a_grid_the_session_may_not_see_is_not_read_from_html(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    nav = Navigator(LOADED, fresh_legacy.url, Finder(LOADED))
    async with pool.context() as context:  # no cookies: the site sends its login page
        got = await day_in_html(nav, context.request, building="1", name="x", day=FRIDAY)
    assert got is None


_PAGE = """<!DOCTYPE html><html><head><title>t</title>
<style>td.free a {{ display: block }} .row label {{ display: inline-block }}</style>{head}
</head><body><form onsubmit="return confirm('?')"><input type="submit" onclick="x()"></form>
<table class="grid"><tr><td style="display: none">hidden</td><td>+</td></tr></table>{body}
</body></html>"""


@pytest.mark.parametrize(
    ("head", "body", "shown"),
    [
        ("", "", True),
        ('<meta http-equiv="Content-Type" content="text/html; charset=utf-8">', "", True),
        ('<link rel="icon" href="/favicon.ico">', "", True),
        ("", "<script>document.querySelector('td').remove()</script>", False),
        ('<script src="/grid.js" defer></script>', "", False),
        ('<link rel="stylesheet" href="/site.css">', "", False),
        ("<style>td.busy { display : none }</style>", "", False),
        ("<style>caption { text-transform: uppercase }</style>", "", False),
        ("<style>td.free::after { content: 'занято' }</style>", "", False),
        ('<meta http-equiv="refresh" content="0; url=/notice">', "", False),
        ("", '<img src="/x.png" onerror="this.remove()">', False),
        ("", '<body onload="draw()">', False),
        ("", '<iframe src="/grid"></iframe>', False),
        ("", '<p style="visibility: hidden">x</p>', False),
        ('<base href="/other/">', "", False),
        ("", '<td class="busy">Занято<noscript><a href="/help">?</a></noscript></td>', False),
        ("", '<svg/onload="draw()"></svg>', False),
        ("", '<img src="x.png"onerror="draw()">', False),
        ("", "<span style=visibility:hidden>x</span>", False),
        ("", '<BODY ONLOAD="draw()">', False),
        ("", "<p>Ночью<SPAN\tStyle = 'Visibility: Hidden'>x</SPAN></p>", False),
        ("", "<p>Вход по пропускам: online, button=…</p>", True),
    ],
)
def test_a_page_is_taken_as_its_html_only_when_nothing_can_change_it(
    head: str, body: str, shown: bool
) -> None:
    assert shown_as_sent(_PAGE.format(head=head, body=body)) is shown


async def _set_drift(site: RunningLegacy, drift: list[str]) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{site.url}/_test/quirks", json={"drift": drift}) as got,
    ):
        assert got.status == 200, await got.text()


@ASYNC
@pytest.mark.parametrize("drift", [[], ["columns"], ["date_format"]], ids=str)
async def test_a_fast_booking_on_a_saved_session_loads_no_page_and_lists_as_the_page(
    fresh_legacy: RunningLegacy, pool: BrowserPool, drift: list[str]
) -> None:
    """The grid from its HTML, the form's POST, «мои брони» by the address its search
    form leads to: no page loaded; and the bookings confirmed are those a session on the
    page path reads on the page, after an empty search in its form."""
    await _set_drift(fresh_legacy, drift)
    system = ProfileSystem(fresh_legacy.url, LOADED, retry=FAST)
    async with pool.context() as context:
        first = system.open_session(context, username="club", password="club-demo")
        await first.ensure_logged_in()  # the saved session, the site's buildings known
        earlier = (await first.availability("2", FRIDAY)).free_rooms(time(9), time(10))
        await first.book(room=earlier[0], day=FRIDAY, start=time(9), end=time(10), purpose="#g1")
        await first.close()
        loads = page_loads(context, lambda url: True)
        session = system.open_session(context, username="club", password="club-demo")
        try:
            await session.ensure_logged_in()
            free = (await session.availability("1", FRIDAY)).free_rooms(time(14), time(15))
            made = await session.book(
                room=free[0], day=FRIDAY, start=time(14), end=time(15), purpose="#g2 «ё»"
            )
            listed = await session.my_bookings()
        finally:
            await session.close()
        assert loads == []
        page_path = ProfileSystem(
            fresh_legacy.url,
            parse_site_profile(page_path_only(PROFILE.read_text(encoding="utf-8")), "page.yaml"),
            retry=FAST,
        ).open_session(context, username="club", password="club-demo")
        try:
            on_page = await page_path.my_bookings()
        finally:
            await page_path.close()
    assert loads != []  # the page path's own list was read on the page
    assert sorted(listed, key=lambda b: b.number) == sorted(on_page, key=lambda b: b.number)
    assert {made.number} < {b.number for b in listed if b.is_live}
    on_site = await LegacyHarness(fresh_legacy, pool).site_bookings("#g2 «ё»")
    assert [(b.room, b.start, b.live) for b in on_site] == [(free[0].number, time(14), True)]


class _Gets:
    """A real request API that notes the address of each page asked of it."""

    def __init__(self, api: APIRequestContext) -> None:
        self._api = api
        self.asked: list[str] = []

    async def get(self, address: str, **options: Any) -> APIResponse:
        parts = urlsplit(address)
        self.asked.append(f"{parts.path}?{parts.query}")
        return await self._api.get(address, **options)


@ASYNC
async def test_where_the_search_form_leads_is_remembered_while_its_list_confirms(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    """«Мои брони» behind the search form: the form's page is read once, later checks go
    straight where it led; an address whose list no longer shows what was just booked is
    forgotten and the form read again."""
    system = ProfileSystem(fresh_legacy.url, LOADED, retry=FAST)
    nav = Navigator(LOADED, fresh_legacy.url, Finder(LOADED))
    async with pool.context() as context:
        session = system.open_session(context, username="club", password="club-demo")
        try:
            free = (await session.availability("1", FRIDAY)).free_rooms(time(16), time(17))
            made = await session.book(
                room=free[0], day=FRIDAY, start=time(16), end=time(17), purpose="#g3"
            )
        finally:
            await session.close()
        # What a session knows after booking: the list shows no rooms.
        recall = Recall(account="club")
        recall.buildings = await read_buildings(nav, await context.new_page())
        recall.pages.remember(made)
        gets = _Gets(context.request)
        api = cast(APIRequestContext, gets)
        first = await confirming_list(nav, api, recall, {made.number})
        again = await confirming_list(nav, api, recall, {made.number})
        assert gets.asked == ["/my?", "/my?q=", "/my?q="]
        assert first is not None and made.number in {b.number for b in first}
        assert again == first
        [(form, searched)] = recall.searched.items()
        recall.searched[form] = f"{searched}nothing-like-it"
        gets.asked.clear()
        anew = await confirming_list(nav, api, recall, {made.number})
    assert gets.asked == ["/my?q=nothing-like-it", "/my?", "/my?q="]
    assert anew == first
    assert recall.searched == {form: searched}
