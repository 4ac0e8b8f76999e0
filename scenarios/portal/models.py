"""Typed values read from the portal's pages."""

from __future__ import annotations

from datetime import date, time

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Grid", "PageSummary", "PortalBooking", "Room", "RoomAvailability"]

Interval = tuple[time, time]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Room(_Frozen):
    id: str  # "<building>-<number>", e.g. "main-405": stable, used in booking URLs
    building: str  # building code, e.g. "main"
    number: str
    floor: int
    capacity: int


def _overlaps(intervals: list[Interval], start: time, end: time) -> bool:
    return any(b_start < end and b_end > start for b_start, b_end in intervals)


class RoomAvailability(_Frozen):
    room: Room
    busy: list[Interval] = Field(default_factory=list)  # merged, sorted; includes ``mine``
    mine: list[Interval] = Field(default_factory=list)  # the logged-in user's own bookings

    def is_free(self, start: time, end: time) -> bool:
        return start < end and not _overlaps(self.busy, start, end)


class Grid(_Frozen):
    building: str  # building code
    building_name: str = ""
    day: date
    opens: time = time(8, 0)
    closes: time = time(22, 0)
    rooms: list[RoomAvailability] = Field(default_factory=list)

    def room(self, number: str) -> RoomAvailability | None:
        return next((r for r in self.rooms if r.room.number == number), None)

    def is_free(self, room_number: str, start: time, end: time) -> bool:
        """Free for the whole interval; False for an unknown room or outside opening hours."""
        found = self.room(room_number)
        if found is None or start < self.opens or end > self.closes:
            return False
        return found.is_free(start, end)

    def free_rooms(self, start: time, end: time) -> list[Room]:
        return [r.room for r in self.rooms if self.is_free(r.room.number, start, end)]


class PortalBooking(_Frozen):
    number: str
    building: str  # building code when the session knows it, else the name shown
    room: str  # room number, e.g. "405"
    day: date
    start: time
    end: time
    purpose: str
    status: str = "active"
    building_name: str = ""

    @property
    def room_id(self) -> str:
        return f"{self.building}-{self.room}"


class PageSummary(_Frozen):
    """What is on the current page, for a person or an LLM (untrusted page text)."""

    url: str
    title: str
    heading: str = ""
    text: str = ""  # visible text, whitespace collapsed, at most ~2000 characters
    fields: list[str] = Field(default_factory=list)  # labels of the visible form fields
    buttons: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    alerts: list[str] = Field(default_factory=list)  # role=alert / role=status messages
