"""How bookings are written for people, in Russian and English."""

from __future__ import annotations

import datetime as dt

from core.commands import Lang
from core.nlu import building_by_code

__all__ = ["building_name", "day_label", "join_rooms", "span"]

_WEEKDAYS = {
    "ru": ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
}


def day_label(day: dt.date, lang: Lang) -> str:
    weekday = _WEEKDAYS[lang][day.weekday()]
    return f"{weekday} {day:%d.%m}" if lang == "ru" else f"{weekday} {day:%d %b}"


def span(start: dt.time, end: dt.time) -> str:
    return f"{start:%H:%M}–{end:%H:%M}"


def building_name(code: str, lang: Lang) -> str:
    building = building_by_code(code)
    if building is None:
        return code
    return building.name_ru if lang == "ru" else building.name_en


def join_rooms(numbers: list[str]) -> str:
    return ", ".join(numbers)
