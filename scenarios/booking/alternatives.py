"""Real alternatives when the wanted rooms are not free, computed from the portal's grids."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence

from pydantic import BaseModel

from core.commands import Lang
from core.nlu import BUILDINGS
from core.output import Option
from scenarios.booking.selection import Want, choose_rooms, nearest_times
from scenarios.booking.texts import building_name, day_label, span
from scenarios.portal.models import Grid

__all__ = ["Placement", "as_options", "find_alternatives"]

GridReader = Callable[[str, dt.date], Awaitable[Grid]]


class Placement(BaseModel):
    """Where and when to book: the request, possibly moved by an alternative."""

    building: str
    day: dt.date
    start: dt.time
    end: dt.time

    def option_id(self) -> str:
        # Option ids go into 64-byte callback data: "cha|261127|1830|2000" (20 chars).
        return f"{self.building[:3]}|{self.day:%y%m%d}|{self.start:%H%M}|{self.end:%H%M}"

    @classmethod
    def from_option_id(cls, value: str) -> Placement:
        prefix, day, start, end = value.split("|")
        building = next(b.code for b in BUILDINGS if b.code.startswith(prefix))
        return cls(
            building=building,
            day=dt.datetime.strptime(day, "%y%m%d").date(),
            start=dt.datetime.strptime(start, "%H%M").time(),
            end=dt.datetime.strptime(end, "%H%M").time(),
        )

    def label(self, lang: Lang) -> str:
        return f"{building_name(self.building, lang)}, {day_label(self.day, lang)} " + span(
            self.start, self.end
        )


async def find_alternatives(
    want: Want,
    wanted: Placement,
    *,
    buildings: Sequence[str],
    read_grid: GridReader,
    now: dt.datetime,
    horizon_days: int,
    limit: int = 4,
) -> list[Placement]:
    """Up to ``limit`` placements that can be booked: another building at the same time,
    the nearest free time the same day, the same time on another day."""
    today = now.date()
    found: list[Placement] = []
    grids: dict[tuple[str, dt.date], Grid] = {}

    async def grid(building: str, day: dt.date) -> Grid:
        if (building, day) not in grids:
            grids[building, day] = await read_grid(building, day)
        return grids[building, day]

    async def fits(place: Placement) -> bool:
        return (
            choose_rooms(await grid(place.building, place.day), want, place.start, place.end)
            is not None
        )

    if not want.numbers:  # named rooms live in one building only
        for building in buildings:
            if building != wanted.building:
                moved = wanted.model_copy(update={"building": building})
                if await fits(moved):
                    found.append(moved)
                    break
    for start, end in nearest_times(wanted.day, wanted.start, wanted.end):
        if wanted.day == today and start <= now.time():
            continue
        moved = wanted.model_copy(update={"start": start, "end": end})
        if await fits(moved):
            found.append(moved)
            break
    for shift_days in range(1, horizon_days + 1):
        day = wanted.day + dt.timedelta(days=shift_days)
        if day > today + dt.timedelta(days=horizon_days):
            break
        moved = wanted.model_copy(update={"day": day})
        if await fits(moved):
            found.append(moved)
            break
    return found[:limit]


def as_options(places: Sequence[Placement], lang: Lang) -> list[Option]:
    return [Option(id=p.option_id(), label=p.label(lang)) for p in places]
