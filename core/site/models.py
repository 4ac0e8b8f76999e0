"""What the engine knows of a site: its catalogue (buildings, rooms, rules), which every
job reads (the parser's places, buttons, alternatives), and what a page shows. Values
only; no site knows about them. A job's own models are its own (the booking job's
availability and bookings: ``scenarios.booking.models``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, time

from pydantic import BaseModel, ConfigDict, Field

from core.commands import Lang

__all__ = [
    "Building",
    "Catalogue",
    "Interval",
    "PageSummary",
    "Room",
    "Rules",
    "merge_intervals",
]

Interval = tuple[time, time]
# A room's own digits: the first run of them, with the dots of a «floor.room» number
# («2.04»), wherever a prefix puts them («N-113», «Room N-113», «Ауд. 113»).
_ROOM_DIGITS = re.compile(r"\d+(?:\.\d+)*")


def merge_intervals(intervals: Iterable[Interval]) -> list[Interval]:
    """Overlapping or touching intervals as one, in order (how a day's busy times are
    kept: ``RoomAvailability.busy``)."""
    merged: list[Interval] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Building(_Frozen):
    code: str  # the site's stable id of the building
    name: str  # as the site shows it
    name_en: str = ""  # from the profile, where the site has no English name
    # Local words for it that the site cannot know («чайка», «гк»), from the profile.
    words: tuple[str, ...] = ()

    def label(self, lang: Lang) -> str:
        return self.name_en if lang == "en" and self.name_en else self.name


class Room(_Frozen):
    id: str  # the site's stable id of the room (what a booking request names)
    building: str  # ``Building.code``
    number: str  # as people say it: "405", "301а"
    floor: int | None = None
    capacity: int | None = None
    needs_approval: bool = False  # a booking stays pending until someone approves it
    horizon_days: int | None = None  # this room's own limit on booking ahead, if any

    @property
    def position(self) -> int | None:
        """Where the room stands along its floor: its number's digits («301а» 301, «N-113»
        113, «Lab 2.04» 204: a campus letter or a word before them is not the room's place).
        Rooms are adjacent when they share building and floor and their positions differ
        by one."""
        found = _ROOM_DIGITS.search(self.number)
        return int(found.group().replace(".", "")) if found else None


class Rules(_Frozen):
    """What the site allows; checked before the site is asked."""

    opens: time = time(8, 0)
    closes: time = time(22, 0)
    step_minutes: int = 30  # start and end times lie on this grid
    longest_minutes: int = 240
    horizon_days: int = 14  # how far ahead one may book (rooms may set their own)
    rooms_per_booking: int = 1  # how many rooms one booking may hold


class Catalogue(_Frozen):
    """One booking system's places and rules, read from the site (plus the profile)."""

    system: str  # the adapter's kind, e.g. "refportal"
    buildings: tuple[Building, ...] = ()
    rooms: tuple[Room, ...] = ()
    rules: Rules = Field(default_factory=Rules)
    read_at: datetime | None = None

    def building(self, code: str) -> Building | None:
        return next((b for b in self.buildings if b.code == code), None)

    def building_label(self, code: str, lang: Lang) -> str:
        found = self.building(code)
        return found.label(lang) if found else code

    def rooms_in(self, building: str) -> list[Room]:
        return [room for room in self.rooms if room.building == building]

    def horizon_days(self, room: Room | None = None) -> int:
        if room is not None and room.horizon_days is not None:
            return room.horizon_days
        return self.rules.horizon_days

    def longest_horizon(self) -> int:
        """The farthest ahead any room may be booked."""
        return max((self.horizon_days(room) for room in self.rooms), default=self.horizon_days())

    def horizon_for(self, building: str | None = None, numbers: Sequence[str] = ()) -> int:
        """How far ahead a request may be booked: the nearest limit of the rooms it names,
        else the farthest of its building's rooms, else of any room."""
        rooms = self.rooms_in(building) if building else []
        named = [room for room in rooms if room.number in numbers]
        if named:
            return min(self.horizon_days(room) for room in named)
        if rooms:
            return max(self.horizon_days(room) for room in rooms)
        return self.longest_horizon()


class PageSummary(_Frozen):
    """What is on the current page, for a person or an LLM (untrusted page text)."""

    url: str
    title: str
    heading: str = ""
    text: str = ""  # visible text, whitespace collapsed, at most ~2000 characters
    fields: list[str] = Field(default_factory=list)  # labels of the visible form fields
    # Those of ``fields`` that are checkboxes: the only fields that may be ticked.
    checkboxes: list[str] = Field(default_factory=list)
    buttons: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    alerts: list[str] = Field(default_factory=list)  # role=alert / role=status messages
