"""Shared clock for NLU tests: Monday 2026-11-23 10:00, Europe/Moscow."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.nlu import Decision, parse

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=TZ)


def decide(text: str) -> Decision:
    return parse(text, now=NOW, tz=TZ)


def slots_of(text: str) -> dict[str, object]:
    found: dict[str, object] = decide(text).to_json()["slots"]  # type: ignore[assignment]
    return found
