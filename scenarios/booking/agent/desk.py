"""``PortalDesk``: the booking system as the agent tools read it (``ports.BookingDesk``),
with the same rules, room choice and scenarios the chat uses."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.agent import RunRequest
from core.authz import Actor
from core.commands import Lang
from core.errors import AgentError
from core.site.catalogue import Catalogues
from scenarios.booking.agent.catalogue import room_info
from scenarios.booking.agent.models import (
    BookingInfo,
    BookingPlan,
    BuildingRooms,
    FoundRooms,
    RoomsQuery,
    ScheduleRequest,
)
from scenarios.booking.book import BookRooms, PreferenceStore
from scenarios.booking.manage import CancelBooking
from scenarios.booking.owners import BookingOwners
from scenarios.booking.selection import Want, choose_rooms, free_rooms
from scenarios.booking.slots import ANY_BUILDING, BookingSlots, check_booking
from scenarios.booking.work import PortalWork

__all__ = ["PortalDesk"]


def _slots(query: RoomsQuery) -> dict[str, Any]:
    numbers = query.room_numbers or None
    slots = BookingSlots(
        date=query.date, start=query.start, end=query.end,
        rooms=len(numbers) if numbers else query.rooms, adjacent=query.adjacent,
        building=query.building or ANY_BUILDING, room=numbers, capacity=query.capacity,
    )  # fmt: skip
    # Absent, not None: the scenario asks for a slot that is not there.
    return slots.model_dump(mode="json", exclude_none=True)


class PortalDesk:
    def __init__(
        self,
        *,
        work: PortalWork,
        catalogues: Catalogues,
        preferences: PreferenceStore,
        owners: BookingOwners,
    ) -> None:
        self._work = work
        self._catalogues = catalogues
        self._preferences = preferences
        self._owners = owners

    def _refused(self, slots: dict[str, Any], lang: Lang, today: dt.date) -> None:
        catalogue = self._catalogues.current
        problem = check_booking(slots, lang, today=today, catalogue=catalogue)
        if problem is not None:
            slot, reason = problem
            raise AgentError(f"{slot}: {reason}")

    def check(self, query: RoomsQuery, *, lang: Lang, today: dt.date) -> None:
        self._refused(_slots(query), lang, today)

    async def _buildings(self, user_id: int, query: RoomsQuery) -> list[str]:
        """The building asked for, else every one, the user's usual ones first."""
        if query.building:
            return [query.building]
        codes = [b.code for b in self._catalogues.current.buildings]
        ranked = [c for c in await self._preferences.ranked(user_id, "building") if c in codes]
        return ranked + [code for code in codes if code not in ranked]

    async def find(self, user_id: int, lang: Lang, query: RoomsQuery) -> FoundRooms:
        numbers = query.room_numbers or None
        want = Want(
            count=len(numbers) if numbers else query.rooms, adjacent=query.adjacent,
            capacity=query.capacity, numbers=numbers,
        )  # fmt: skip
        found: list[BuildingRooms] = []
        async with self._work.reader(user_id, lang) as session:
            for code in await self._buildings(user_id, query):
                grid = await session.availability(code, query.date)
                free = free_rooms(grid, query.start, query.end)
                chosen = choose_rooms(grid, want, query.start, query.end) or []
                found.append(
                    BuildingRooms(
                        building=code,
                        building_name=self._catalogues.current.building_label(code, lang),
                        free=[room_info(r) for r in free if not r.needs_approval],
                        suggested=[r.number for r in chosen],
                    )
                )
        return FoundRooms(date=query.date, start=query.start, end=query.end, buildings=found)

    def booking_run(self, plan: BookingPlan, query: RoomsQuery) -> RunRequest:
        exact = query.model_copy(update={"building": plan.building, "room_numbers": plan.rooms})
        return RunRequest(scenario=BookRooms.name, slots=_slots(exact))

    async def bookings(self, actor: Actor, lang: Lang) -> list[BookingInfo]:
        catalogue = self._catalogues.current
        async with self._work.reader(actor.user_id, lang) as session:
            mine = await self._owners.theirs(actor, await session.my_bookings())
        return [
            BookingInfo(
                number=b.number,
                building=b.building,
                building_name=b.building_name or catalogue.building_label(b.building, lang),
                room=b.room,
                date=b.day,
                start=b.start,
                end=b.end,
                status=b.status,
            )  # fmt: skip
            for b in sorted(mine, key=lambda b: (b.day, b.start, b.building, b.room))
            if b.is_live
        ]

    def cancel_run(self, booking: BookingInfo) -> RunRequest:
        slots: dict[str, Any] = {"date": booking.date.isoformat(), "room": [booking.room]}
        if self._catalogues.current.building(booking.building) is not None:
            slots["building"] = booking.building
        # Its two questions (which booking, and «are you sure?») were answered by the plan
        # and its confirmation.
        answers = {"which": booking.number, "confirm": "yes"}
        return RunRequest(scenario=CancelBooking.name, slots=slots, answers=answers)

    def schedule_slots(self, request: ScheduleRequest, *, lang: Lang) -> dict[str, Any]:
        numbers = request.room_numbers or None
        found = {
            "start": f"{request.start:%H:%M}",
            "end": f"{request.end:%H:%M}",
            "rooms": len(numbers) if numbers else request.rooms,
            "adjacent": request.adjacent,
            "building": request.building or ANY_BUILDING,
            "room": numbers,
            "capacity": request.capacity,
        }
        slots = {key: value for key, value in found.items() if value is not None}
        # No date: the rules about dates do not apply (each firing is checked again).
        self._refused(slots, lang, dt.date.min)
        return slots
