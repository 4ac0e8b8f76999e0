"""What the booking agent is given of the booking system (``PortalDesk`` on the
configured site): reading it outside any run, and the runs that change it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from core.agent import RunRequest
from core.authz import Actor
from core.commands import Lang
from scenarios.booking.agent.models import (
    BookingInfo,
    BookingPlan,
    FoundRooms,
    RoomsQuery,
    ScheduleInfo,
    ScheduleRequest,
)

__all__ = ["BookingDesk", "ScheduleDesk"]


class BookingDesk(Protocol):
    def check(self, query: RoomsQuery, *, lang: Lang, today: dt.date) -> None:
        """Raise ``AgentError`` with the reason (in ``lang``) when the site's rules refuse
        ``query`` before the site is asked."""

    async def find(self, user_id: int, lang: Lang, query: RoomsQuery) -> FoundRooms:
        """Free rooms and the ones a booking would take, per building (reads only)."""

    def booking_run(self, plan: BookingPlan, query: RoomsQuery) -> RunRequest:
        """The run that books exactly ``plan``."""

    async def bookings(self, actor: Actor, lang: Lang) -> list[BookingInfo]:
        """The live bookings on the site ``actor`` may act on (reads only)."""

    def cancel_run(self, booking: BookingInfo) -> RunRequest:
        """The run that cancels ``booking``, its confirmation already given."""

    def schedule_slots(self, request: ScheduleRequest, *, lang: Lang) -> dict[str, Any]:
        """The schedule's booking slots; ``AgentError`` when the site's rules refuse them."""


class ScheduleDesk(Protocol):
    """The recurring bookings (the booking job's schedules) as the agent API shows them."""

    async def of_owner(self, user_id: int, lang: Lang) -> list[ScheduleInfo]:
        """The schedules ``user_id`` made."""

    async def create(
        self,
        *,
        owner_id: int,
        chat_id: int,
        weekdays: list[str],
        slots: dict[str, Any],
        timezone: str,
        lang: Lang,
    ) -> ScheduleInfo:
        """A new active schedule of ``slots`` on ``weekdays``."""
