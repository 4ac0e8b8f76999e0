"""The contract's ``SiteHarness`` for a real MRBS 1.12.2 (``tests/sites/mrbs.py``), driven by
the profile adapter with ``profiles/mrbs.yaml``: the site's truth read from its tables."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, time, timedelta
from pathlib import Path

from adapters.profile import ProfileSystem, load_site_profile
from core.site.models import Room
from scenarios.booking.port import BookingSystem
from tests.adapters.contract import SiteBooking
from tests.adapters.refportal.helpers import FAST
from tests.sites.mrbs import MrbsServer

__all__ = ["PROFILE", "MrbsHarness"]

PROFILE = Path(__file__).parents[3] / "profiles" / "mrbs.yaml"


class MrbsHarness:
    building = "1"  # «Главный корпус»: rooms 101–105
    start = time(14, 0)
    end = time(15, 30)

    def __init__(self, server: MrbsServer) -> None:
        self.server = server
        self.system: BookingSystem = ProfileSystem(
            server.base_url, load_site_profile(PROFILE), retry=FAST
        )
        self.username = server.club.username
        self.password = server.club.password
        self.day: date = server.today() + timedelta(days=5)  # past the seed's days

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        server = self.server
        await asyncio.to_thread(
            server.add_booking,
            room.number,
            server.at(day, f"{start:%H:%M}"),
            server.at(day, f"{end:%H:%M}"),
        )

    async def site_bookings(self, purpose: str) -> list[SiteBooking]:
        entries = await asyncio.to_thread(self.server.bookings, self.username)
        # MRBS deletes a cancelled entry outright: what is there is live.
        return [
            SiteBooking(
                room=entry.room,
                day=entry.start.date(),
                start=entry.start.time(),
                end=entry.end.time(),
                purpose=entry.name,
                live=True,
            )
            for entry in entries
            if entry.name == purpose
        ]

    async def expire_sessions(self) -> None:
        await asyncio.to_thread(self.server.end_sessions)

    @asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        with self.server.outage():
            yield
