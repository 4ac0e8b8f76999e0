"""The reference portal's baselines for a booking of three adjacent rooms: the same job
as plain HTTP requests, and as a bare Playwright script with the job's navigations and
none of the scenario's checks."""

from __future__ import annotations

import re
import time
from datetime import date
from typing import TYPE_CHECKING

import aiohttp

from bench.booking_rig import ACCOUNT

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext


__all__ = ["free_rooms", "http_booking", "script_booking", "three_adjacent"]


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


_FREE = re.compile(r"^Аудитория (\d+), (\d\d:\d\d)–(\d\d:\d\d), свободно$")


def three_adjacent(free: set[int]) -> int:
    return next(n for n in sorted(free) if {n + 1, n + 2} <= free and n // 100 == (n + 2) // 100)


async def _http_login(http: aiohttp.ClientSession, url: str) -> None:
    page = await (await http.get(f"{url}/login")).text()
    login = {"username": ACCOUNT[0], "password": ACCOUNT[1], "next": "/rooms"}
    await http.post(f"{url}/login", data=login | {"csrf_token": _CSRF.findall(page)[0]})


async def _http_free(
    http: aiohttp.ClientSession, url: str, day: date, spans: list[str]
) -> set[int]:
    """Rooms of the main building free in every ``HH:MM-HH:MM`` span."""
    query = {"building": "main", "date": day.isoformat()}
    grid = await (await http.get(f"{url}/api/availability", params=query)).json()
    return {
        int(r["number"])
        for r in grid["rooms"]
        if not any(b["start"] < s[6:] and s[:5] < b["end"] for b in r["busy"] for s in spans)
    }


def _jar() -> aiohttp.CookieJar:
    # unsafe=True: the portal is on an IP address, whose cookies aiohttp drops by default.
    return aiohttp.CookieJar(unsafe=True)


async def free_rooms(url: str, day: date, spans: list[str]) -> list[int]:
    async with aiohttp.ClientSession(cookie_jar=_jar()) as http:
        await _http_login(http, url)
        return sorted(await _http_free(http, url, day, spans))


async def http_booking(url: str, day: date, start: str, end: str) -> float:
    """The same job with plain HTTP: log in, read availability, book 3 adjacent, verify."""
    began = time.perf_counter()
    async with aiohttp.ClientSession(cookie_jar=_jar()) as http:
        await _http_login(http, url)
        first = three_adjacent(await _http_free(http, url, day, [f"{start}-{end}"]))
        for number in (first, first + 1, first + 2):
            fields = {"room": f"main-{number}", "date": day.isoformat(), "start": start, "end": end}
            form = await (await http.get(f"{url}/book", params=fields)).text()
            data = fields | {"purpose": "bench", "csrf_token": _CSRF.findall(form)[0]}
            response = await http.post(f"{url}/book", data=data)
            assert response.status == 200, response.status
        mine = await (await http.get(f"{url}/my")).text()
        assert all(str(n) in mine for n in (first, first + 1, first + 2))
    return time.perf_counter() - began


async def script_booking(
    context: BrowserContext, url: str, day: date, start: str, end: str, *, login: bool
) -> float:
    """The job's page flow as a bare Playwright script: log in (with ``login``; else the
    saved cookies are trusted), the day's grid, a form per room, and «Мои брони» showing
    the bookings (the scenario checks it too); no other checks."""
    began = time.perf_counter()
    page = await context.new_page()
    if login:
        await page.goto(f"{url}/login?next=%2Fmy")
        await page.get_by_label("Имя пользователя").fill(ACCOUNT[0])
        await page.get_by_label("Пароль", exact=True).fill(ACCOUNT[1])
        async with page.expect_navigation():
            await page.get_by_role("button", name="Войти").click()
    await page.goto(f"{url}/rooms")
    await page.get_by_label("Корпус", exact=True).select_option("main")
    await page.get_by_label("Дата", exact=True).fill(day.isoformat())
    async with page.expect_navigation():
        await page.get_by_role("button", name="Показать").click()
    grid = page.get_by_role("table", name=re.compile("^Занятость аудиторий"))
    await grid.wait_for()
    labels: list[str] = await grid.get_by_role("link").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('aria-label'))"
    )
    cells: dict[int, set[str]] = {}
    for label in labels:
        if found := _FREE.match(label):
            cells.setdefault(int(found[1]), set()).add(found[2])
    wanted = {f"{m // 60:02d}:{m % 60:02d}" for m in range(_min(start), _min(end), 30)}
    first = three_adjacent({n for n, starts in cells.items() if wanted <= starts})
    for number in (first, first + 1, first + 2):
        query = f"room=main-{number}&date={day.isoformat()}&start={start}&end={end}"
        await page.goto(f"{url}/book?{query}")  # the portal fills in the date and times
        await page.get_by_label("Цель бронирования", exact=True).fill("bench")
        async with page.expect_navigation():
            await page.get_by_role("button", name="Забронировать").click()
    await page.goto(f"{url}/my")
    text = await page.get_by_role("table", name="Мои брони").inner_text()
    assert all(str(n) in text for n in (first, first + 1, first + 2))
    await page.close()
    return time.perf_counter() - began


def _min(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])
