"""Shared clock for NLU tests: Monday 2026-11-23 10:00, Europe/Moscow; the reference
portal's buildings."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.nlu import Decision, parse
from tests.support.catalogues import refportal_places

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=TZ)
PLACES = refportal_places()


def decide(text: str) -> Decision:
    return parse(text, now=NOW, tz=TZ, places=PLACES)


def slots_of(text: str) -> dict[str, object]:
    found: dict[str, object] = decide(text).to_json()["slots"]  # type: ignore[assignment]
    return found
