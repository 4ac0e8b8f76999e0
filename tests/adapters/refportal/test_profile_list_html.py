"""«My bookings» read from the HTML the reference portal sends, without a browser
(``adapters.profile.htmltable``, ``listhtml``): the same table a real Chromium reads on the
page, in every way the portal draws the list; the rooms' grid, which the portal's script
draws, is not found in its HTML; and on the fast path a session confirms its bookings
with no page at all, once, and reads the page whenever the HTML does not confirm them."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest
from playwright.async_api import BrowserContext

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.finding import candidate
from adapters.profile.htmltable import table_in_html
from adapters.profile.reading import probes_of, read_table
from adapters.profile.rows import list_picks
from core.browser import BrowserPool
from portal.server import RunningPortal
from scenarios.booking.models import Booking
from tests.adapters.refportal.helpers import (
    FAST,
    FRIDAY,
    PROFILE,
    make_session,
    page_loads,
    set_quirks,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

LOADED = load_site_profile(PROFILE)


def _live(bookings: list[Booking]) -> set[str]:
    return {b.number for b in bookings if b.is_live}


async def _book(system: ProfileSystem, context: BrowserContext, hour: int, mark: str) -> str:
    session = system.open_session(context, username="club", password="club-demo")
    try:
        await session.ensure_logged_in()
        free = (await session.availability("main", FRIDAY)).free_rooms(time(hour), time(hour + 1))
        made = await session.book(
            room=free[0], day=FRIDAY, start=time(hour), end=time(hour + 1),
            purpose=f"html <b>&amp;</b> · #{mark}",
        )  # fmt: skip
    finally:
        await session.close()
    return made.number


@pytest.mark.parametrize(
    "quirks",
    [{}, {"drift": ["columns"]}, {"drift": ["date_format"]}, {"layout": "alt"}],
    ids=["as_is", "columns", "date_format", "alt_layout"],
)
async def test_the_list_read_from_its_html_is_the_list_the_browser_reads(
    fresh_portal: RunningPortal, context: BrowserContext, quirks: dict[str, Any]
) -> None:
    await set_quirks(fresh_portal.url, **quirks)
    await _book(ProfileSystem(fresh_portal.url, LOADED, retry=FAST), context, 16, "h1")
    spec = LOADED.profile.my_bookings
    assert spec.table is not None
    way = spec.table[0]
    picks = list_picks(spec)
    html = await (await context.request.get(f"{fresh_portal.url}/my")).text()
    page = await context.new_page()
    await page.goto(f"{fresh_portal.url}/my")
    in_browser = await read_table(
        candidate(page, way).first, line_probes=probes_of(picks), has=["form button"]
    )
    from_html = table_in_html(html, way, line_probes=probes_of(picks), has=["form button"])
    assert from_html == in_browser
    assert len(in_browser.lines) >= 2  # the head and the booking made


async def test_a_table_the_pages_script_draws_is_not_found_in_its_html(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    grid = LOADED.profile.availability.grid
    assert grid is not None
    await _book(ProfileSystem(fresh_portal.url, LOADED, retry=FAST), context, 17, "h5")
    url = f"{fresh_portal.url}/rooms?building=main&date={FRIDAY.isoformat()}"
    page = await context.new_page()
    await page.goto(url)
    await candidate(page, grid.table[0]).first.wait_for()  # the page shows it
    html = await (await context.request.get(url)).text()
    assert table_in_html(html, grid.table[0]) is None


async def test_a_fast_booking_is_confirmed_from_the_lists_html_once_with_no_page(
    fresh_portal: RunningPortal, context: BrowserContext, pool: BrowserPool
) -> None:
    system = ProfileSystem(fresh_portal.url, LOADED, retry=FAST)
    await _book(system, context, 10, "h2")  # logged in; the site's buildings known
    state = await context.storage_state()
    async with pool.context(storage_state=dict(state)) as saved:
        loads = page_loads(saved, lambda url: True)
        session = system.open_session(saved, username="club", password="club-demo")
        try:
            await session.ensure_logged_in()
            free = (await session.availability("main", FRIDAY)).free_rooms(time(11), time(12))
            made = await session.book(
                room=free[0], day=FRIDAY, start=time(11), end=time(12), purpose="html · #h3"
            )
            confirmed = await session.my_bookings()
            assert loads == [] and saved.pages == []  # logged in, found, booked, confirmed
            again = await session.my_bookings()  # not a confirmation: the page
            assert [url.rpartition("/")[2] for url in loads] == ["my"]
        finally:
            await session.close()
    assert made.number in _live(confirmed)
    assert _live(again) == _live(confirmed)


async def test_a_booking_the_lists_html_does_not_show_is_looked_for_on_the_page(
    fresh_portal: RunningPortal, context: BrowserContext, pool: BrowserPool
) -> None:
    system = ProfileSystem(fresh_portal.url, LOADED, retry=FAST)
    session = system.open_session(context, username="club", password="club-demo")
    try:
        await session.ensure_logged_in()
        free = (await session.availability("main", FRIDAY)).free_rooms(time(13), time(14))
        made = await session.book(
            room=free[0], day=FRIDAY, start=time(13), end=time(14), purpose="html · #h4"
        )
        async with pool.context() as other:  # cancelled on the site meanwhile
            hand = make_session(other, fresh_portal)
            await hand.ensure_logged_in()
            await hand.cancel(made.number)
        loads = page_loads(context, lambda url: url.split("?")[0].endswith("/my"))
        listed = await session.my_bookings()
    finally:
        await session.close()
    assert len(loads) == 1  # the HTML did not confirm it: the page was read
    assert made.number not in _live(listed)
