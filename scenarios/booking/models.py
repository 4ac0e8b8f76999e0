"""The booking port's models: who holds which room on a day, and a booking as the site
shows it. Values only; adapters answer in them."""

from __future__ import annotations

from datetime import date, time

from pydantic import BaseModel, ConfigDict, Field

from core.site.models import Interval, Room

__all__ = ["Availability", "Booking", "RoomAvailability"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


def _overlaps(intervals: list[Interval], start: time, end: time) -> bool:
    return any(b_start < end and b_end > start for b_start, b_end in intervals)


class RoomAvailability(_Frozen):
    room: Room
    busy: list[Interval] = Field(default_factory=list)  # merged, sorted; includes ``mine``
    mine: list[Interval] = Field(default_factory=list)  # the logged-in user's own bookings

    def is_free(self, start: time, end: time) -> bool:
        return start < end and not _overlaps(self.busy, start, end)


class Availability(_Frozen):
    """Who holds which room of one building on one day."""

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


class Booking(_Frozen):
    number: str  # the site's id of the booking
    building: str  # building code when the session knows it, else the name shown
    room: str  # room number, e.g. "405"
    day: date
    start: time
    end: time
    purpose: str
    status: str = "active"  # "active", "pending" (awaiting approval) or "cancelled"
    building_name: str = ""
    room_id: str = ""  # the room's site id, where the site says it

    @property
    def is_live(self) -> bool:
        """Holds the room (active, or waiting for approval)."""
        return self.status in ("active", "pending")
