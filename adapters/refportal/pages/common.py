"""Parsing helpers shared by the booking pages (dates and times as the portal prints them)."""

from __future__ import annotations

import re
from datetime import date, datetime, time

__all__ = ["hhmm", "parse_day", "parse_span"]

_DAY = re.compile(r"(\d{2})\.(\d{2})\.(\d{4})")
_SPAN = re.compile(r"(\d{1,2}:\d{2})\s*[–—-]\s*(\d{1,2}:\d{2})")


def hhmm(value: time) -> str:
    return value.strftime("%H:%M")


def parse_day(text: str) -> date | None:
    """``27.11.2026 (пт)`` or ``2026-11-27`` → a date."""
    found = _DAY.search(text)
    if found:
        return date(int(found.group(3)), int(found.group(2)), int(found.group(1)))
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def parse_span(text: str) -> tuple[time, time] | None:
    """``18:00–19:30`` → (18:00, 19:30)."""
    found = _SPAN.search(text)
    if not found:
        return None
    return (
        datetime.strptime(found.group(1), "%H:%M").time(),
        datetime.strptime(found.group(2), "%H:%M").time(),
    )
