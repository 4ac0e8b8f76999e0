"""An in-memory booking system behind the port, for product tests that are about the
product and not about a site: any catalogue, bookings in a list, no pages."""

from __future__ import annotations

import itertools
from datetime import date, time
from typing import Any

from core.browser import BrowserContext
from core.site import Catalogue, OnRetry, PageSummary, Room
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.models import Availability, Booking, RoomAvailability

__all__ = ["MemorySite"]


class MemorySite:
    """``BookingSystem``: every session books into the same list."""

    kind = "memory"
    url = "memory://"

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.bookings: list[Booking] = []
        self._numbers = itertools.count(1)

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> MemorySession:
        return MemorySession(self)

    def record(self, room: Room, day: date, start: time, end: time, purpose: str) -> Booking:
        """A new booking, numbered and kept."""
        booking = Booking(
            number=str(next(self._numbers)),
            building=room.building,
            room=room.number,
            room_id=room.id,
            day=day,
            start=start,
            end=end,
            purpose=purpose,
        )
        self.bookings.append(booking)
        return booking


class MemorySession:
    def __init__(self, site: MemorySite) -> None:
        self._site = site

    @property
    def logins(self) -> int:
        return 0

    async def ensure_logged_in(self) -> None:
        return None

    async def catalogue(self) -> Catalogue:
        return self._site.catalogue

    async def availability(self, building: str, day: date) -> Availability:
        rules = self._site.catalogue.rules
        rooms = [
            RoomAvailability(
                room=room,
                busy=[
                    (b.start, b.end)
                    for b in self._site.bookings
                    if b.room_id == room.id and b.day == day and b.is_live
                ],
            )
            for room in self._site.catalogue.rooms_in(building)
        ]
        return Availability(
            building=building, day=day, opens=rules.opens, closes=rules.closes, rooms=rooms
        )

    async def book(
        self,
        *,
        room: Room,
        day: date,
        start: time,
        end: time,
        purpose: str,
        attendees: int | None = None,
    ) -> Booking:
        for held in self._site.bookings:
            same_room = held.room_id == room.id and held.day == day and held.is_live
            if same_room and held.start < end and held.end > start:
                if (held.start, held.end, held.purpose) == (start, end, purpose):
                    return held  # this request again
                raise SlotTaken("Аудитория уже занята")
        return self._site.record(room, day, start, end, purpose)

    async def my_bookings(self) -> list[Booking]:
        return list(self._site.bookings)

    async def cancel(self, number: str) -> None:
        for i, held in enumerate(self._site.bookings):
            if held.number == number and held.is_live:
                self._site.bookings[i] = held.model_copy(update={"status": "cancelled"})
                return
        raise BookingRejected(f"Бронь № {number} не найдена", code="not_found")

    async def page_summary(self) -> PageSummary:
        return PageSummary(url=self._site.url, title="memory")

    def may_change(self, step: str) -> tuple[str, ...]:
        return ()

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        raise BookingRejected("no pages here")

    async def check(self, label: str, *, step: str = "") -> None:
        raise BookingRejected("no pages here")

    async def release(self) -> tuple[str, ...]:
        return ()  # no pages, no guard

    async def storage_state(self) -> dict[str, Any]:
        return {}

    async def close(self) -> None:
        return None
