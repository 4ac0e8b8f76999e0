"""The time runs spend inside a booking adapter's own calls (the port's methods: logging
in, the day's grid, booking, «my bookings»), for the benches that set the adapter next to
plain HTTP, as ``booking_legacy`` times its calls. A wrapper around a ``BookingSystem``;
the product is untouched."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import date, time
from time import perf_counter
from typing import Any, TypeVar

from core.browser import BrowserContext
from core.site import Catalogue, OnRetry, PageSummary, Room
from scenarios.booking.models import Availability, Booking
from scenarios.booking.port import BookingSession, BookingSystem

__all__ = ["TimedSystem"]

T = TypeVar("T")


class TimedSystem:
    """``system``, with ``spent``: the seconds its sessions' calls took, summed."""

    def __init__(self, system: BookingSystem) -> None:
        self._system = system
        self.kind = system.kind
        self.url = system.url
        self.spent = 0.0

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> BookingSession:
        opened = self._system.open_session(
            context, username=username, password=password, on_retry=on_retry
        )
        return _TimedSession(opened, self)


class _TimedSession:
    def __init__(self, session: BookingSession, owner: TimedSystem) -> None:
        self._session = session
        self._owner = owner

    async def _timed(self, call: Awaitable[T]) -> T:
        began = perf_counter()
        try:
            return await call
        finally:
            self._owner.spent += perf_counter() - began

    @property
    def logins(self) -> int:
        return self._session.logins

    async def ensure_logged_in(self) -> None:
        await self._timed(self._session.ensure_logged_in())

    async def catalogue(self) -> Catalogue:
        return await self._timed(self._session.catalogue())

    async def availability(self, building: str, day: date) -> Availability:
        return await self._timed(self._session.availability(building, day))

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
        return await self._timed(
            self._session.book(
                room=room, day=day, start=start, end=end, purpose=purpose, attendees=attendees
            )
        )

    async def my_bookings(self) -> list[Booking]:
        return await self._timed(self._session.my_bookings())

    async def cancel(self, number: str) -> None:
        await self._timed(self._session.cancel(number))

    async def page_summary(self) -> PageSummary:
        return await self._session.page_summary()

    def may_change(self, step: str) -> tuple[str, ...]:
        return self._session.may_change(step)

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        await self._session.click(role, name, step=step)

    async def check(self, label: str, *, step: str = "") -> None:
        await self._session.check(label, step=step)

    async def release(self) -> tuple[str, ...]:
        return await self._session.release()

    async def storage_state(self) -> dict[str, Any]:
        return await self._session.storage_state()

    async def close(self) -> None:
        await self._session.close()
