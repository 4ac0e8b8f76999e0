"""The reference portal as a contract suite's site (``RefPortalHarness``): the profile
adapter on ``profiles/refportal.yaml``; the suites are in ``test_profile_contract.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, time
from typing import Any

import aiohttp
import pytest

from core.browser import BrowserPool
from core.site.models import Room
from portal.server import RunningPortal
from scenarios.booking.port import BookingSystem
from tests.adapters.contract import SiteBooking
from tests.adapters.refportal.helpers import FAST, FRIDAY, set_quirks
from tests.support.refportal import refportal_system

__all__ = ["RefPortalHarness"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class RefPortalHarness:
    username = "club"
    password = "club-demo"
    building = "main"
    day = FRIDAY
    start = time(18, 0)
    end = time(20, 0)

    def __init__(self, portal: RunningPortal, pool: BrowserPool) -> None:
        self.system: BookingSystem = refportal_system(portal.url, retry=FAST)
        self._url = portal.url
        self._pool = pool

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        async with self._pool.context() as context:
            other = self.system.open_session(context, username="chess", password="chess-demo")
            try:
                await other.book(room=room, day=day, start=start, end=end, purpose="Шахматы")
            finally:
                await other.close()

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
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{self._url}/_test/expire_sessions") as answer,
        ):
            assert answer.status == 200

    @asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        await set_quirks(self._url, error_rate=1.0)
        try:
            yield
        finally:
            await set_quirks(self._url, error_rate=0.0)

    @asynccontextmanager
    async def hidden_outcome(self) -> AsyncIterator[None]:
        await set_quirks(self._url, drift=["in_place", "short_list"])
        try:
            yield
        finally:
            await set_quirks(self._url)
