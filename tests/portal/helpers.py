"""Helpers for portal tests: a steerable clock, browser steps, a plain HTTP client."""

from __future__ import annotations

import re
import time
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp
from playwright.async_api import Locator, Page

from portal.clock import MSK, parse_hhmm

__all__ = [
    "START",
    "HttpUser",
    "TestClock",
    "all_bookings",
    "busy_booking",
    "free_room",
    "grid",
    "login",
    "set_quirks",
]

# Monday 23.11.2026 09:00 Moscow: fixed so dates in tests are deterministic.
START = datetime(2026, 11, 23, 9, 0, tzinfo=MSK)
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class TestClock:
    """Starts at ``START`` and runs in real time; ``advance`` jumps ahead."""

    __test__ = False  # not a test class, despite the name

    def __init__(self) -> None:
        self._t0 = time.monotonic()
        self.shift = timedelta()

    def __call__(self) -> datetime:
        return START + timedelta(seconds=time.monotonic() - self._t0) + self.shift

    def advance(self, delta: timedelta) -> None:
        self.shift += delta

    @property
    def today(self) -> date:
        return self().date()


async def login(
    page: Page, username: str = "club", password: str = "club-demo", *, then: str | None = None
) -> None:
    """Log in through the form; ``then`` is where to land (default: the rooms page)."""
    await page.goto("/login" if then is None else f"/login?next={quote(then, safe='')}")
    await page.get_by_label("Имя пользователя").fill(username)
    await page.get_by_label("Пароль").fill(password)
    await page.get_by_role("button", name="Войти").click()
    await page.wait_for_load_state()


def grid(page: Page) -> Locator:
    """The availability table; it exists only after the script has loaded the JSON."""
    return page.get_by_role("table", name=re.compile("Занятость аудиторий"))


async def set_quirks(base_url: str, **quirks: Any) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http:
        resp = await http.post(f"{base_url}/_test/quirks", json=quirks)
        assert resp.status == 200, await resp.text()
        body: dict[str, Any] = await resp.json()
        return body


async def all_bookings(base_url: str) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http:
        resp = await http.get(f"{base_url}/_test/bookings")
        assert resp.status == 200
        body: list[dict[str, Any]] = await resp.json()
        return body


def _overlaps(b: dict[str, Any], start: str, end: str) -> bool:
    return bool(b["start"] < end and b["end"] > start)


async def free_room(base_url: str, building: str, day: date, start: str, end: str) -> str:
    """A room id (``main-405``) with no active booking overlapping the interval."""
    from portal.data import building as get_building

    taken = {
        b["room"]
        for b in await all_bookings(base_url)
        if b["status"] == "active" and b["date"] == day.isoformat() and _overlaps(b, start, end)
    }
    for r in get_building(building).rooms:
        if r.id not in taken:
            return r.id
    raise AssertionError("no free room")


async def busy_booking(base_url: str, day: date) -> dict[str, Any]:
    """A seeded booking of another user on ``day``, at least an hour long."""
    for b in await all_bookings(base_url):
        minutes = (parse_hhmm(b["end"]) or 0) - (parse_hhmm(b["start"]) or 0)
        if b["date"] == day.isoformat() and b["user"] not in ("club", "chess") and minutes >= 60:
            return b
    raise AssertionError("no seeded booking that day")


class HttpUser:
    """A logged-in plain HTTP client that posts forms with their CSRF tokens."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        # unsafe=True: the default jar refuses cookies from IP hosts such as 127.0.0.1.
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def __aenter__(self) -> HttpUser:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.close()

    async def csrf(self, path: str) -> str:
        resp = await self.http.get(self.base_url + path)
        found = _CSRF.search(await resp.text())
        assert found, f"no CSRF token on {path} ({resp.status})"
        return found.group(1)

    async def login(self, username: str, password: str) -> aiohttp.ClientResponse:
        token = await self.csrf("/login")
        form = {"username": username, "password": password, "csrf_token": token, "next": "/my"}
        return await self.http.post(self.base_url + "/login", data=form)

    async def book_form(self, room: str, day: date, start: str, end: str) -> dict[str, str]:
        token = await self.csrf(f"/book?room={room}&date={day}&start={start}&end={end}")
        return {
            "csrf_token": token,
            "room": room,
            "date": day.isoformat(),
            "start": start,
            "end": end,
            "purpose": "Заседание клуба",
            "attendees": "10",
        }

    async def post(self, path: str, form: dict[str, str]) -> aiohttp.ClientResponse:
        return await self.http.post(self.base_url + path, data=form, allow_redirects=False)
