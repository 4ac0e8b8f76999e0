"""Portal time: one injectable clock, Moscow time, and HH:MM slot arithmetic."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from zoneinfo import ZoneInfo

__all__ = [
    "CLOSE_MIN",
    "MSK",
    "OPEN_MIN",
    "SLOT_MIN",
    "Clock",
    "fmt_hhmm",
    "now_msk",
    "parse_date",
    "parse_hhmm",
    "slot_starts",
    "system_clock",
]

MSK = ZoneInfo("Europe/Moscow")
OPEN_MIN = 8 * 60  # 08:00
CLOSE_MIN = 22 * 60  # 22:00
SLOT_MIN = 30

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(MSK)


def now_msk(clock: Clock) -> datetime:
    """The clock's time in Moscow; a naive value is taken to be Moscow time already."""
    moment = clock()
    if moment.tzinfo is None:
        return moment.replace(tzinfo=MSK)
    return moment.astimezone(MSK)


def parse_hhmm(text: str) -> int | None:
    """Minutes since midnight for ``HH:MM`` (24:00 allowed as an end), else ``None``."""
    hours, sep, minutes = text.strip().partition(":")
    if not sep or not hours.isdigit() or not minutes.isdigit() or len(minutes) != 2:
        return None
    value = int(hours) * 60 + int(minutes)
    if int(minutes) >= 60 or value > 24 * 60:
        return None
    return value


def fmt_hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def slot_starts() -> list[int]:
    """Start minute of every 30-minute cell of the grid, 08:00 … 21:30."""
    return list(range(OPEN_MIN, CLOSE_MIN, SLOT_MIN))
