"""Dates as ``DD.MM.YYYY`` and times as seconds since midnight, as the legacy site shows them."""

from __future__ import annotations

from datetime import date, datetime

from portal.clock import CLOSE_MIN, OPEN_MIN, SLOT_MIN

__all__ = [
    "CLOSE_SEC",
    "OPEN_SEC",
    "STEP_SEC",
    "end_choices",
    "fmt_dmy",
    "fmt_hhmm",
    "fmt_span",
    "parse_dmy",
    "parse_seconds",
    "seconds_of",
    "start_choices",
]

OPEN_SEC = OPEN_MIN * 60  # 08:00
CLOSE_SEC = CLOSE_MIN * 60  # 22:00
STEP_SEC = SLOT_MIN * 60  # 30 minutes


def parse_dmy(text: str) -> date | None:
    """``27.11.2026`` → a date; anything else (ISO included) → ``None``."""
    parts = text.strip().split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or len(parts[2]) != 4:
        return None
    try:
        return date(int(parts[2]), int(parts[1]), int(parts[0]))
    except ValueError:
        return None


def fmt_dmy(day: date) -> str:
    return f"{day:%d.%m.%Y}"


def parse_seconds(text: str) -> int | None:
    """Seconds since midnight from a form field (``"64800"``), within one day, else ``None``."""
    text = text.strip()
    if not text.isdigit() or len(text) > 6:
        return None
    value = int(text)
    return value if value <= 24 * 3600 else None


def fmt_hhmm(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}"


def fmt_span(start: int, end: int) -> str:
    """``18:00 - 20:00``: a hyphen with spaces, as the old system writes it."""
    return f"{fmt_hhmm(start)} - {fmt_hhmm(end)}"


def seconds_of(moment: datetime) -> int:
    return moment.hour * 3600 + moment.minute * 60 + moment.second


def start_choices() -> list[int]:
    """Every start the form offers: 08:00 … 21:30."""
    return list(range(OPEN_SEC, CLOSE_SEC, STEP_SEC))


def end_choices() -> list[int]:
    """Every end the form offers: 08:30 … 22:00."""
    return list(range(OPEN_SEC + STEP_SEC, CLOSE_SEC + STEP_SEC, STEP_SEC))
