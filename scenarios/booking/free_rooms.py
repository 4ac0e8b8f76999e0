"""Rooms free for a whole time, nearest to a given room first: what the booking job's
availability offers another job (an event whose room turned out taken)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.scenario import StepContext
from core.site.models import Room
from scenarios.booking.work import PortalWork

__all__ = ["FreeRoomsNearby"]


class FreeRoomsNearby:
    """Read with the run's booking session (opened on first use, closed on ``release``)."""

    def __init__(self, work: PortalWork) -> None:
        self._work = work

    async def near(
        self, ctx: StepContext[Any], room: Room, day: dt.date, start: dt.time, end: dt.time
    ) -> list[Room]:
        session = await self._work.session(ctx)
        free = (await session.availability(room.building, day)).free_rooms(start, end)

        def distance(other: Room) -> tuple[bool, int]:
            apart = abs((other.position or 0) - (room.position or 0))
            return other.floor != room.floor, apart

        usable = [r for r in free if r.id != room.id and not r.needs_approval]
        return sorted(usable, key=distance)

    async def release(self, run_id: str) -> None:
        await self._work.release(run_id)
