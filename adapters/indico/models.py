"""What Indico's room booking tells us, as typed values (Indico's naive local datetimes).

Indico stores and serves room-booking times as naive datetimes in its server time zone
(``DEFAULT_TIMEZONE``); we keep them naive here and let the adapter attach the zone.
Field aliases name Indico's JSON keys, so parsing stays declarative.
"""

from __future__ import annotations

from datetime import date, datetime, time
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DAY_END",
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
    "booking_from_details",
    "busy_from_day",
    "busy_from_occurrences",
    "hours_from_unbookable",
]

DAY_END = time(23, 59)
"""Indico's "end of day" in bookable and unbookable hours."""


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


# --- from Indico's JSON (the rb React app's payloads) ------------------------------------


def booking_from_details(details: dict[str, Any]) -> Booking:
    """A booking from ``reservation_details_schema`` (create, cancel, booking details)."""
    booked_for = details.get("booked_for_user") or {}
    return Booking(
        id=details["id"],
        room_id=details["room_id"],
        start=details["start_dt"],
        end=details["end_dt"],
        reason=details.get("booking_reason") or "",
        state=BookingState(details["state"]),
        booked_for=booked_for.get("full_name") or "",
    )


def busy_from_occurrences(items: list[dict[str, Any]], kind: BusyKind) -> list[Busy]:
    """Occurrences as the timeline lists them (``bookings``/``pre_bookings`` of a day)."""
    out = []
    for occ in items:
        resv = occ.get("reservation") or {}
        out.append(
            Busy(
                start=occ["start_dt"],
                end=occ["end_dt"],
                kind=kind,
                reservation_id=resv.get("id"),
                reason=resv.get("booking_reason"),
                booked_for=resv.get("booked_for_name"),
            )
        )
    return out


def busy_from_day(data: dict[str, Any], key: str, day: date) -> list[Busy]:
    """Blockings (whole days), non-bookable periods and hours outside the bookable ones."""
    day_start, day_end = datetime.combine(day, time(0, 0)), datetime.combine(day, DAY_END)
    out = [
        Busy(start=day_start, end=day_end, kind=BusyKind.BLOCKING, reason=b.get("reason"))
        for b in data.get("blockings", {}).get(key, [])
    ]
    for period in data.get("nonbookable_periods", {}).get(key, []):
        start = max(datetime.fromisoformat(period["start_dt"]), day_start)
        end = min(datetime.fromisoformat(period["end_dt"]), day_end)
        out.append(Busy(start=start, end=end, kind=BusyKind.NONBOOKABLE))
    for hours in data.get("unbookable_hours", []):
        start_t, end_t = (
            time.fromisoformat(hours["start_time"]),
            time.fromisoformat(hours["end_time"]),
        )
        if start_t < end_t:
            out.append(
                Busy(
                    start=datetime.combine(day, start_t),
                    end=datetime.combine(day, end_t),
                    kind=BusyKind.OUTSIDE_HOURS,
                )
            )
    return out


def hours_from_unbookable(unbookable: list[dict[str, str]]) -> list[HoursRange]:
    """Indico serves the complement of a room's bookable hours; turn it back."""
    if not unbookable:
        return []
    spans = sorted(
        (time.fromisoformat(u["start_time"]), time.fromisoformat(u["end_time"])) for u in unbookable
    )
    out: list[HoursRange] = []
    cursor = time(0, 0)
    for start, end in spans:
        if start > cursor:
            out.append(HoursRange(start=cursor, end=start))
        cursor = max(cursor, end)
    if cursor < DAY_END:
        out.append(HoursRange(start=cursor, end=DAY_END))
    return out
