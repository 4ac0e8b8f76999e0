"""A schedule as scenarios see it: plain data, no storage types."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.booking import Catalogue
from core.commands import Lang
from core.scheduler.times import WEEKDAY_CODES

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


_DAYS: dict[Lang, dict[str, str]] = {
    "ru": dict(zip(WEEKDAY_CODES, ("пн", "вт", "ср", "чт", "пт", "сб", "вс"), strict=True)),
    "en": dict(zip(WEEKDAY_CODES, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), strict=True)),
}


def weekdays_label(weekdays: list[str], lang: Lang) -> str:
    """``["mon", "thu"]`` → «пн, чт»."""
    return ", ".join(_DAYS[lang][d] for d in WEEKDAY_CODES if d in weekdays)


def what_label(slots: dict[str, Any], lang: Lang, catalogue: Catalogue) -> str:
    """«18:00–20:00, 405, Главный корпус» for a schedule's booking slots."""
    parts = [f"{slots.get('start', '?')}–{slots.get('end', '?')}"]
    rooms = slots.get("room")
    count = int(slots.get("rooms") or 1)
    if rooms:
        parts.append(", ".join(rooms))
    elif count > 1:
        near = (" рядом" if lang == "ru" else " adjacent") if slots.get("adjacent") else ""
        parts.append(f"{count} ауд.{near}" if lang == "ru" else f"{count} rooms{near}")
    code = slots.get("building")
    if code == "any":
        parts.append("любой корпус" if lang == "ru" else "any building")
    elif code:
        parts.append(catalogue.building_label(code, lang))
    return ", ".join(parts)


def entry_label(
    weekdays: list[str], slots: dict[str, Any], lang: Lang, catalogue: Catalogue
) -> str:
    """«чт 18:00–20:00, 405»."""
    return f"{weekdays_label(weekdays, lang)} {what_label(slots, lang, catalogue)}"
