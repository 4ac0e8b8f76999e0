"""How bookings are written for people, in Russian and English."""

from __future__ import annotations

import datetime as dt

from core.commands import Lang

__all__ = ["day_label", "join_rooms", "span"]

_WEEKDAYS = {
    "ru": ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
}


def day_label(day: dt.date, lang: Lang) -> str:
    weekday = _WEEKDAYS[lang][day.weekday()]
    return f"{weekday} {day:%d.%m}" if lang == "ru" else f"{weekday} {day:%d %b}"


def span(start: dt.time, end: dt.time) -> str:
    return f"{start:%H:%M}–{end:%H:%M}"


def join_rooms(numbers: list[str]) -> str:
    return ", ".join(numbers)
