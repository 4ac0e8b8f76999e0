"""Slot models of the schedule scenarios, and the booking slots a schedule stores."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel

from core.nlu import Recurrence

__all__ = ["ScheduleSlots", "WeekdaySlots", "booking_slots"]


class ScheduleSlots(BaseModel):
    """«каждый четверг 405 с 18 до 20»: the weekdays and what to book on each."""

    recurrence: Recurrence | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    rooms: int = 1
    adjacent: bool = False
    building: str | None = None
    room: list[str] | None = None
    capacity: int | None = None

    def weekdays(self) -> list[str]:
        return list(self.recurrence.weekdays) if self.recurrence else []


class WeekdaySlots(BaseModel):
    """«отключи автобронь по средам»: which weekdays, if said."""

    recurrence: Recurrence | None = None
    room: list[str] | None = None  # «больше не занимай 301 по вторникам»: the one with 301

    def weekdays(self) -> list[str]:
        return list(self.recurrence.weekdays) if self.recurrence else []


def booking_slots(slots: ScheduleSlots) -> dict[str, Any]:
    """What each firing books (plus its date), in the JSON form ``book_rooms`` reads."""
    assert slots.start is not None and slots.end is not None
    found = {
        "start": f"{slots.start:%H:%M}",
        "end": f"{slots.end:%H:%M}",
        "rooms": slots.rooms,
        "adjacent": slots.adjacent,
        "building": slots.building,
        "room": slots.room,
        "capacity": slots.capacity,
    }
    return {key: value for key, value in found.items() if value is not None}
