"""The contract's ``SiteHarness`` for the legacy-style site (``portal/legacy``), driven by
the profile adapter with ``profiles/legacy.yaml``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, time
from pathlib import Path
from typing import Any

import aiohttp

from adapters.profile import ProfileSystem, load_site_profile
from core.browser import BrowserPool
from core.site.models import Room
from portal.legacy.server import RunningLegacy
from scenarios.booking.port import BookingSystem
from tests.adapters.contract import SiteBooking
from tests.adapters.refportal.helpers import FAST, FRIDAY

__all__ = ["PROFILE", "LegacyHarness"]

PROFILE = Path(__file__).parents[3] / "profiles" / "legacy.yaml"


class LegacyHarness:
    username = "club"
    password = "club-demo"
    building = "1"
    day = FRIDAY
    start = time(18, 0)
    end = time(20, 0)

    def __init__(self, site: RunningLegacy, pool: BrowserPool) -> None:
        self.system: BookingSystem = ProfileSystem(site.url, load_site_profile(PROFILE), retry=FAST)
        self._url = site.url
        self._pool = pool

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        async with self._pool.context() as context:
            other = self.system.open_session(context, username="chess", password="chess-demo")
            try:
                await other.book(room=room, day=day, start=start, end=end, purpose="Шахматы")
            finally:
                await other.close()

    async def _post(self, path: str, payload: dict[str, Any]) -> None:
        async with (
            aiohttp.ClientSession() as http,
            http.post(self._url + path, json=payload) as got,
        ):
            assert got.status == 200, await got.text()

    async def site_bookings(self, purpose: str) -> list[SiteBooking]:
        async with aiohttp.ClientSession() as http, http.get(f"{self._url}/_test/bookings") as got:
            assert got.status == 200
            rows: list[dict[str, Any]] = await got.json()
        return [
            SiteBooking(
                room=row["room_number"],
                day=date.fromisoformat(row["date"]),
                start=time.fromisoformat(row["start"]),
                end=time.fromisoformat(row["end"]),
                purpose=row["purpose"],
                live=row["status"] == "active",
            )
            for row in rows
            if row["user"] == self.username and row["purpose"] == purpose
        ]

    async def expire_sessions(self) -> None:
        await self._post("/_test/expire_sessions", {})

    @asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        await self._post("/_test/quirks", {"error_rate": 1.0})
        try:
            yield
        finally:
            await self._post("/_test/quirks", {"error_rate": 0.0})

    @asynccontextmanager
    async def hidden_outcome(self) -> AsyncIterator[None]:
        await self._post("/_test/quirks", {"drift": ["in_place", "short_list"]})
        try:
            yield
        finally:
            await self._post("/_test/quirks", {})
