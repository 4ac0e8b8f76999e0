"""Helpers for the reference portal's tests: its test API, a few fixed dates, and
sessions of the profile adapter on ``profiles/refportal.yaml``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time, timedelta
from typing import Any

import aiohttp
from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.session import ProfileSession
from core.browser.retry import RetryPolicy
from core.site.models import Room
from portal.server import RunningPortal
from tests.portal.helpers import START
from tests.support.refportal import REFPORTAL_PROFILE, refportal_system

__all__ = [
    "FAST",
    "FRIDAY",
    "PROFILE",
    "TODAY",
    "active_bookings",
    "all_bookings",
    "busy_cells",
    "make_session",
    "page_loads",
    "profile_session",
    "reset",
    "set_quirks",
]

PROFILE = REFPORTAL_PROFILE

TODAY: date = START.date()  # Monday 23.11.2026, the portal clock starts at 09:00 Moscow
FRIDAY: date = TODAY + timedelta(days=4)
FAST = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.05)


async def _post(url: str, payload: dict[str, Any]) -> None:
    async with aiohttp.ClientSession() as http, http.post(url, json=payload) as response:
        assert response.status == 200, await response.text()


async def reset(base_url: str) -> None:
    await _post(f"{base_url}/_test/reset", {})


async def set_quirks(base_url: str, **quirks: Any) -> None:
    await _post(f"{base_url}/_test/quirks", quirks)


async def all_bookings(base_url: str) -> list[dict[str, Any]]:
    """Every booking from ``/_test/bookings``, cancelled ones too."""
    async with aiohttp.ClientSession() as http, http.get(f"{base_url}/_test/bookings") as resp:
        assert resp.status == 200
        found: list[dict[str, Any]] = await resp.json()
    return found


async def active_bookings(base_url: str, **match: str) -> list[dict[str, Any]]:
    """Active bookings from ``/_test/bookings`` whose fields equal ``match``."""
    return [
        b
        for b in await all_bookings(base_url)
        if b["status"] == "active" and all(str(b[k]) == v for k, v in match.items())
    ]


def _minutes(value: time) -> int:
    return value.hour * 60 + value.minute


def busy_cells(spans: list[tuple[time, time]]) -> set[int]:
    """Start minutes of the 30-minute cells the spans cover."""
    return {m for s, e in spans for m in range(_minutes(s), _minutes(e), 30)}


def make_session(
    context: BrowserContext,
    portal: RunningPortal,
    *,
    username: str = "club",
    password: str = "club-demo",
    timeout_ms: int = 10_000,
    retry: RetryPolicy = FAST,
    page_path: bool = False,
) -> ProfileSession:
    """A session of ``profiles/refportal.yaml`` with short retry waits (the product's
    defaults are longer); ``page_path``: booking through the form's page (a test that
    routes the browser's POST), not by the form's own request."""
    system = refportal_system(portal.url, retry=retry, page_path=page_path)
    return ProfileSession(
        context,
        system.loaded,
        base_url=portal.url,
        username=username,
        password=password,
        timeout_ms=timeout_ms,
        retry=retry,
    )


def room_of(room_id: str) -> Room:
    """The room ``main-405`` as the catalogue names it (the portal's ids are building-number)."""
    building, _, number = room_id.rpartition("-")
    return Room(id=room_id, building=building, number=number)


def profile_session(
    portal: RunningPortal, context: BrowserContext, text: str | None = None
) -> ProfileSession:
    """A session of the profile adapter as the club: ``profiles/refportal.yaml``, or
    ``text`` instead."""
    if text is None:
        return make_session(context, portal)
    loaded = parse_site_profile(text, "x.yaml")
    return ProfileSystem(portal.url, loaded, retry=FAST).open_session(
        context, username="club", password="club-demo"
    )


def page_loads(context: BrowserContext, wanted: Callable[[str], bool]) -> list[str]:
    """Every page the browser loads from now on whose address is ``wanted``."""
    loads: list[str] = []

    def note(request: Request) -> None:
        if request.is_navigation_request() and wanted(request.url):
            loads.append(request.url)

    context.on("request", note)
    return loads
