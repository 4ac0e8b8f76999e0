"""The booking just made, read where the form led on a page its scripts draw
(``read_made``), on a small real site in a real Chromium: taken as first drawn when it
shows just what was sent, while the page still fetches; a page drawn first with
something else (a placeholder) is read once it settled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import date, time

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.made import read_made
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool
from scenarios.booking.models import Booking
from tests.adapters.profile.profile_text import FILE, edited
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PURPOSE = "Клуб #abc"
# Booking 7 shows «…» for its purpose until its fetch answers; booking 8 is whole at
# once, while another fetch of the page's is under way (answered late, with a 502).
_BOOKING = """<html><body><p>Номер брони: <strong data-booking-id="{number}">{number}</strong>
<dl><dt>Корпус</dt><dd>Главный корпус</dd><dt>Аудитория</dt><dd>101</dd>
<dt>Дата</dt><dd>15.12.2026</dd><dt>Время</dt><dd>18:00–20:00</dd>
<dt>Цель</dt><dd id=purpose>{purpose}</dd></dl><script>{script}</script></body></html>"""
_DRAFTED = (
    'fetch("/purpose").then((r) => r.json())'
    '.then((j) => { document.getElementById("purpose").textContent = j.purpose; });'
)
_WHOLE = 'fetch("/slow");'


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async def booking(request: web.Request) -> web.Response:
        number = request.match_info["number"]
        drafted = number == "7"
        text = _BOOKING.format(
            number=number,
            purpose="…" if drafted else _PURPOSE,
            script=_DRAFTED if drafted else _WHOLE,
        )
        return web.Response(text=text, content_type="text/html")

    async def purpose(_: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.json_response({"purpose": _PURPOSE})

    async def slow(_: web.Request) -> web.Response:
        await asyncio.sleep(5)
        return web.json_response({}, status=502)

    app = web.Application()
    app.router.add_get("/booking/{number}", booking)
    app.router.add_get("/purpose", purpose)
    app.router.add_get("/slow", slow)
    async with served(app) as url:
        yield url


def _navigator(url: str) -> Navigator:
    text = edited(
        "booking_page:\n  url: /booking/{number}\n",
        'booking_page:\n  url: /booking/{number}\n  wait:\n    - css: "[data-booking-id]"\n',
    )
    loaded = parse_site_profile(text, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=10_000)


def _sent(number: str) -> Booking:
    return Booking(
        number=number,
        building="1",
        building_name="Главный корпус",
        room="101",
        day=date(2026, 12, 15),
        start=time(18),
        end=time(20),
        purpose=_PURPOSE,
    )


_CODES = {"Главный корпус": "1"}


async def test_a_booking_drawn_as_sent_is_taken_while_the_page_still_fetches(
    pool: BrowserPool, site: str
) -> None:
    """The page's other fetch fails, late: had the page been settled first, the read
    would have been refused (its data «did not load»)."""
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.goto(page, f"{site}/booking/8")
        made = await read_made(nav, page, "8", _CODES, sent=_sent("8"))
    assert made == _sent("8")


async def test_a_booking_drawn_first_with_something_else_is_read_once_settled(
    pool: BrowserPool, site: str
) -> None:
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.goto(page, f"{site}/booking/7")
        made = await read_made(nav, page, "7", _CODES, sent=_sent("7"))
    assert made.purpose == _PURPOSE
