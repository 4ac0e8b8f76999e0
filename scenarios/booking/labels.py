"""Pieces of booking texts that read the same in every language (days are
``core.texts.day_label``)."""

from __future__ import annotations

import datetime as dt

__all__ = ["join_rooms", "span"]


def span(start: dt.time, end: dt.time) -> str:
    return f"{start:%H:%M}–{end:%H:%M}"


def join_rooms(numbers: list[str]) -> str:
    return ", ".join(numbers)
