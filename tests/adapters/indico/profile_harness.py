"""The contract's ``SiteHarness`` for Indico driven through its web pages by the profile
adapter with ``profiles/indico.yaml``; everything else as ``IndicoHarness``."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, time, timedelta
from pathlib import Path

from adapters.profile import ProfileSystem, load_site_profile
from core.browser.retry import RetryPolicy
from core.site.models import Room
from tests.adapters.indico.harness import IndicoHarness
from tests.support.indico_server import IndicoServer

__all__ = ["PROFILE", "IndicoPagesHarness"]

PROFILE = Path(__file__).parents[3] / "profiles" / "indico.yaml"
_FAST = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.5)


class IndicoPagesHarness(IndicoHarness):
    def __init__(self, server: IndicoServer) -> None:
        super().__init__(server)
        self.day = server.today() + timedelta(days=6)  # not the API contract's day
        self.system = ProfileSystem(server.base_url, load_site_profile(PROFILE), retry=_FAST)

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        # The profile's room id is the room's full name («7/7-701»), as its pages show it.
        site_room = await asyncio.to_thread(self.server.room, room.id)
        await asyncio.to_thread(
            self.server.add_booking,
            site_room.id,
            datetime.combine(day, start),
            datetime.combine(day, end),
            user="other",
        )
