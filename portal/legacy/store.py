"""Bookings in memory. The site runs on one event loop and no method awaits, so the
conflict check and the insert can never interleave: of two requests for one slot,
exactly one wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from portal.legacy.data import Room, SeedBooking, find_building, find_room
from portal.legacy.rules import BUSY_MESSAGE, Refused, Request
from portal.legacy.timefmt import fmt_hhmm

__all__ = ["Booking", "BookingBook"]


@dataclass(frozen=True, slots=True)
class Booking:
    id: int
    user: str
    room: Room
    day: date
    start: int  # seconds since midnight
    end: int
    purpose: str
    people: int | None
    status: str  # "active" or "cancelled"

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def building_name(self) -> str:
        found = find_building(self.room.building_id)
        return found.name if found else ""

    def as_json(self) -> dict[str, object]:
        """The reference portal's ``/_test/bookings`` row; ids as strings, like the portal's."""
        return {
            "id": self.id,
            "user": self.user,
            "building": str(self.room.building_id),
            "building_name": self.building_name,
            "room": str(self.room.id),
            "room_number": self.room.number,
            "date": self.day.isoformat(),
            "start": fmt_hhmm(self.start),
            "end": fmt_hhmm(self.end),
            "purpose": self.purpose,
            "attendees": self.people,
            "status": self.status,
        }


class BookingBook:
    def __init__(self) -> None:
        self._rows: dict[int, Booking] = {}
        self._next_id = 1

    def reset(self, seeds: list[SeedBooking]) -> None:
        self._rows.clear()
        self._next_id = 1
        for s in seeds:
            room = find_room(s.room_id)
            assert room is not None, f"seed for unknown room {s.room_id}"
            self._add(s.user, Request(room, s.day, s.start, s.end, s.purpose, s.people))

    def _add(self, user: str, req: Request) -> Booking:
        booking = Booking(
            self._next_id, user, req.room, req.day, req.start, req.end, req.purpose,
            req.people, "active",
        )  # fmt: skip
        self._rows[booking.id] = booking
        self._next_id += 1
        return booking

    def create(self, user: str, req: Request) -> Booking:
        """Book, or raise ``Refused("busy")`` if an active booking of the room overlaps."""
        for b in self._rows.values():
            if (
                b.active
                and b.room.id == req.room.id
                and b.day == req.day
                and b.start < req.end
                and b.end > req.start
            ):
                raise Refused("busy", BUSY_MESSAGE)
        return self._add(user, req)

    def cancel(self, booking_id: int, *, user: str) -> Booking | None:
        """Cancel the user's booking (again is fine); ``None`` if it is not theirs."""
        found = self._rows.get(booking_id)
        if found is None or found.user != user:
            return None
        self._rows[booking_id] = replace(found, status="cancelled")
        return self._rows[booking_id]

    def get(self, booking_id: int) -> Booking | None:
        return self._rows.get(booking_id)

    def all(self) -> list[Booking]:
        return sorted(self._rows.values(), key=lambda b: b.id)

    def active_on(self, building_id: int, day: date) -> list[Booking]:
        return [
            b
            for b in self._rows.values()
            if b.active and b.day == day and b.room.building_id == building_id
        ]

    def search(self, user: str, text: str, *, today: date) -> list[Booking]:
        """The user's active bookings from today on whose purpose contains ``text`` (any case)."""
        needle = text.strip().casefold()
        found = [
            b
            for b in self._rows.values()
            if b.user == user and b.active and b.day >= today and needle in b.purpose.casefold()
        ]
        return sorted(found, key=lambda b: (b.day, b.start, b.id))
