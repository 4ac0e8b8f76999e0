"""The booking job's reading of a command as NLU tests take it: at Monday 2026-11-23
10:00, Europe/Moscow, with the reference portal's buildings."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.nlu import Decision
from scenarios.booking.vocabulary import parse
from tests.support.catalogues import refportal_places

__all__ = ["NOW", "PLACES", "TZ", "decide", "slots_of"]

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=TZ)
PLACES = refportal_places()


def decide(text: str) -> Decision:
    return parse(text, now=NOW, tz=TZ, places=PLACES)


def slots_of(text: str) -> dict[str, object]:
    found: dict[str, object] = decide(text).to_json()["slots"]  # type: ignore[assignment]
    return found
