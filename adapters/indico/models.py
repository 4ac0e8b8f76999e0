"""What Indico's room booking tells us, as typed values (Indico's naive local datetimes).

Indico stores and serves room-booking times as naive datetimes in its server time zone
(``DEFAULT_TIMEZONE``); we keep them naive here and let the adapter attach the zone.
Field aliases name Indico's JSON keys, so parsing stays declarative.
"""

from __future__ import annotations

from datetime import date, datetime, time
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Booking",
    "BookingState",
    "Busy",
    "BusyKind",
    "Catalogue",
    "HoursRange",
    "IndicoUser",
    "Location",
    "Room",
    "RoomAvailability",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


class IndicoUser(_Model):
    """The logged-in account, as ``/rooms/api/user/`` reports it."""

    id: int
    full_name: str
    email: str
    is_admin: bool = False


class HoursRange(_Model):
    """A daily time range (bookable hours); ``end`` 23:59 stands for the end of the day."""

    start: time
    end: time


class Room(_Model):
    id: int
    name: str
    full_name: str
    verbose_name: str | None = None
    building: str
    floor: str
    number: str
    capacity: int | None = None
    location_id: int
    location_name: str
    is_reservable: bool
    needs_confirmation: bool = Field(validation_alias="reservations_need_confirmation")
    max_advance_days: int | None = None
    """Booking horizon: the last bookable day is today + max_advance_days - 1 (None: no limit)."""
    bookable_hours: tuple[HoursRange, ...] = ()
    """When a booking may lie; empty means any time of day."""
    can_book: bool = False
    """This user may book outright (accepted at once)."""
    can_prebook: bool = False
    """This user may only ask (a pre-booking a room manager approves)."""


class Location(_Model):
    id: int
    name: str


class Catalogue(_Model):
    rooms: tuple[Room, ...]

    @property
    def locations(self) -> tuple[Location, ...]:
        seen = {r.location_id: Location(id=r.location_id, name=r.location_name) for r in self.rooms}
        return tuple(seen.values())

    @property
    def buildings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.building for r in self.rooms))

    def room(self, room_id: int) -> Room:
        for room in self.rooms:
            if room.id == room_id:
                return room
        raise KeyError(room_id)


class BusyKind(StrEnum):
    BOOKING = "booking"
    PRE_BOOKING = "pre_booking"
    """Pending approval: does not stop an outright booking (Indico rejects the pending one)."""
    BLOCKING = "blocking"
    NONBOOKABLE = "nonbookable"
    OUTSIDE_HOURS = "outside_hours"


class Busy(_Model):
    start: datetime
    end: datetime
    kind: BusyKind
    reservation_id: int | None = None
    reason: str | None = None
    booked_for: str | None = None


class RoomAvailability(_Model):
    """One room on one day: all that occupies it, and Indico's verdict for the asked range."""

    room_id: int
    day: date
    start: datetime
    end: datetime
    available: bool
    """Indico would accept a booking of exactly [start, end) now."""
    busy: tuple[Busy, ...]


class BookingState(StrEnum):
    ACCEPTED = "accepted"
    PENDING = "pending"
    CANCELLED = "cancelled"
    REJECTED = "rejected"


class Booking(_Model):
    id: int
    room_id: int
    start: datetime
    end: datetime
    reason: str
    state: BookingState
    booked_for: str = ""
