"""Real alternatives when the wanted rooms are not free, computed from the site's
availability and the catalogue's rules."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence

from pydantic import BaseModel

from core.commands import Lang
from core.errors import ScenarioError
from core.output import Option
from core.site.models import Catalogue
from core.texts import day_label
from scenarios.booking.models import Availability
from scenarios.booking.selection import Want, choose_rooms, nearest_times
from scenarios.booking.texts import span

__all__ = ["Placement", "as_options", "find_alternatives"]

_CODE_CHARS = 7
AvailabilityReader = Callable[[str, dt.date], Awaitable[Availability]]


class Placement(BaseModel):
    """Where and when to book: the request, possibly moved by an alternative."""

    building: str
    day: dt.date
    start: dt.time
    end: dt.time

    def option_id(self) -> str:
        # Option ids are at most 24 characters: "chaikov|261127|1830|2000"; the building is
        # its code's first characters (``from_option_id`` finds it in the catalogue).
        code = self.building[:_CODE_CHARS]
        return f"{code}|{self.day:%y%m%d}|{self.start:%H%M}|{self.end:%H%M}"

    @classmethod
    def from_option_id(cls, value: str, catalogue: Catalogue) -> Placement:
        parts = value.rsplit("|", 3)
        codes = [b.code for b in catalogue.buildings]
        prefix = parts[0] if len(parts) == 4 else ""
        matches = [c for c in codes if c == prefix] or [c for c in codes if c.startswith(prefix)]
        if len(parts) != 4 or not prefix or len(matches) != 1:
            raise ScenarioError(f"no single building for the option {value!r}")
        try:
            return cls(
                building=matches[0],
                day=dt.datetime.strptime(parts[1], "%y%m%d").date(),
                start=dt.datetime.strptime(parts[2], "%H%M").time(),
                end=dt.datetime.strptime(parts[3], "%H%M").time(),
            )
        except ValueError as exc:  # not an id this module made (a typed answer, say)
            raise ScenarioError(f"not an alternative's option id: {value!r}") from exc

    def label(self, catalogue: Catalogue, lang: Lang) -> str:
        where = catalogue.building_label(self.building, lang)
        return f"{where}, {day_label(self.day, lang)} " + span(self.start, self.end)


async def find_alternatives(
    want: Want,
    wanted: Placement,
    *,
    catalogue: Catalogue,
    read: AvailabilityReader,
    now: dt.datetime,
    limit: int = 4,
) -> list[Placement]:
    """Up to ``limit`` placements that can be booked: another building at the same time,
    the nearest free time the same day, the same time on another day (within the
    catalogue's horizon)."""
    today = now.date()
    horizon = catalogue.rules.horizon_days
    found: list[Placement] = []
    seen: dict[tuple[str, dt.date], Availability] = {}

    async def availability(building: str, day: dt.date) -> Availability:
        if (building, day) not in seen:
            seen[building, day] = await read(building, day)
        return seen[building, day]

    async def fits(place: Placement) -> bool:
        free = await availability(place.building, place.day)
        return choose_rooms(free, want, place.start, place.end) is not None

    if not want.numbers:  # named rooms live in one building only
        for building in catalogue.buildings:
            if building.code != wanted.building:
                moved = wanted.model_copy(update={"building": building.code})
                if await fits(moved):
                    found.append(moved)
                    break
    for start, end in nearest_times(wanted.day, wanted.start, wanted.end, catalogue.rules):
        if wanted.day == today and start <= now.time():
            continue
        moved = wanted.model_copy(update={"start": start, "end": end})
        if await fits(moved):
            found.append(moved)
            break
    for shift_days in range(1, horizon + 1):
        day = wanted.day + dt.timedelta(days=shift_days)
        if day > today + dt.timedelta(days=horizon):
            break
        moved = wanted.model_copy(update={"day": day})
        if await fits(moved):
            found.append(moved)
            break
    return found[:limit]


def as_options(places: Sequence[Placement], catalogue: Catalogue, lang: Lang) -> list[Option]:
    return [Option(id=p.option_id(), label=p.label(catalogue, lang)) for p in places]
