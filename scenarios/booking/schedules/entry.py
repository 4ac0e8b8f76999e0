"""A schedule as scenarios see it: plain data, no storage types."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.commands import Lang
from core.site.models import Catalogue
from core.texts import WEEKDAYS, tr
from scenarios.booking.schedules.texts import Schedules
from scenarios.booking.schedules.times import WEEKDAY_CODES

__all__ = ["ScheduleEntry", "ScheduleState", "entry_label", "weekdays_label", "what_label"]

ScheduleState = Literal["active", "paused", "deleted"]


class ScheduleEntry(BaseModel):
    id: str
    owner_id: int
    chat_id: int
    weekdays: list[str]
    # The booking slots without a date: start, end, rooms, adjacent, building, room, capacity.
    slots: dict[str, Any] = Field(default_factory=dict)
    timezone: str
    status: ScheduleState = "active"

    def label(self, lang: Lang, catalogue: Catalogue) -> str:
        return entry_label(self.weekdays, self.slots, lang, catalogue)


def weekdays_label(weekdays: list[str], lang: Lang) -> str:
    """``["mon", "thu"]`` → «пн, чт»."""
    names = zip(WEEKDAY_CODES, WEEKDAYS, strict=True)
    return ", ".join(tr(name, lang) for code, name in names if code in weekdays)


def what_label(slots: dict[str, Any], lang: Lang, catalogue: Catalogue) -> str:
    """«18:00–20:00, 405, Главный корпус» for a schedule's booking slots."""
    parts = [f"{slots.get('start', '?')}–{slots.get('end', '?')}"]
    rooms = slots.get("room")
    count = int(slots.get("rooms") or 1)
    if rooms:
        parts.append(", ".join(rooms))
    elif count > 1:
        several = Schedules.SOME_ROOMS_ADJACENT if slots.get("adjacent") else Schedules.SOME_ROOMS
        parts.append(tr(several, lang, count=count))
    code = slots.get("building")
    if code == "any":
        parts.append(tr(Schedules.ANY_BUILDING, lang))
    elif code:
        parts.append(catalogue.building_label(code, lang))
    return ", ".join(parts)


def entry_label(
    weekdays: list[str], slots: dict[str, Any], lang: Lang, catalogue: Catalogue
) -> str:
    """«чт 18:00–20:00, 405»."""
    return f"{weekdays_label(weekdays, lang)} {what_label(slots, lang, catalogue)}"
