"""Property-style checks over many generated commands: never crash, start < end,
required slots and questions consistent, JSON shape stable."""

from __future__ import annotations

import itertools
import json
import random
from datetime import datetime, timedelta
from typing import get_args
from zoneinfo import ZoneInfo

import pytest

from core.nlu import Decision, SlotName
from core.nlu.slots import MAX_ROOMS
from scenarios.booking.vocabulary import BookingIntent, parse
from tests.support.reading import NOW, PLACES, TZ, decide

_KEYS = {
    "intent",
    "confidence",
    "slots",
    "missing",
    "next_action",
    "clarification_question",
    "lang",
    "negated",
}
_SLOT_KEYS = set(get_args(SlotName))

_VERBS = ["забронируй", "book", "нужна", "reserve", "бронирй", ""]
_COUNTS = ["", "две аудитории", "3 rooms", "a room", "аудиторию", "пять комнат"]
_DAYS = ["", "завтра", "tomorrow", "в четверг", "next Friday", "27.11", "Nov 27", "31.02"]
_TIMES = [
    "",
    "с 18 до 20",
    "from 3pm to 5pm",
    "10-12",
    "с 25 до 26",
    "с 20 до 18",
    "в 19:00 на 2 часа",
    "в 23:30 на 2 часа",
    "at 25:99",
    "с 0 до 0",
    "12am-12pm",
    "до 24",
]
_EXTRAS = ["", "рядом", "next to each other", "на 40 человек", "в главном корпусе", "301"]


def _generated() -> list[str]:
    combos = itertools.product(_VERBS, _COUNTS, _DAYS, _TIMES, _EXTRAS)
    rng = random.Random(7)
    picked = rng.sample(list(combos), 600)
    return [" ".join(part for part in combo if part) for combo in picked]


GENERATED = _generated()


def _check(decision: Decision) -> None:
    data = decision.to_json()
    assert set(data) == _KEYS
    json.dumps(data, ensure_ascii=False)
    assert 0.0 <= decision.confidence <= 1.0
    slots = data["slots"]
    assert isinstance(slots, dict) and set(slots) <= _SLOT_KEYS
    assert None not in slots.values()
    s = decision.slots
    if s.start is not None and s.end is not None:
        assert s.start < s.end
    assert (decision.next_action == "clarify") == bool(decision.missing)
    assert (decision.clarification_question is None) == (not decision.missing)
    bounded = s.rooms is None or 1 <= s.rooms <= MAX_ROOMS
    for name in decision.missing:
        assert getattr(s, name) is None or (name == "rooms" and not bounded) or name == "capacity"
    if decision.intent in (BookingIntent.BOOK_ROOMS, BookingIntent.SCHEDULE_BOOKING):
        assert s.rooms is not None
        if s.room:
            assert s.rooms == len(s.room)
    if decision.negated:  # a denied booking never books
        assert decision.intent not in (BookingIntent.BOOK_ROOMS, BookingIntent.SCHEDULE_BOOKING)
    if not bounded:  # kept as written, and asked about
        assert decision.missing[0] == "rooms"


def test_generated_commands_keep_invariants() -> None:
    for text in GENERATED:
        _check(decide(text))


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\n\t",
        "!!!",
        "-",
        "--10--",
        "с",
        "с до",
        "с 18 до",
        "до",
        "на",
        "for",
        "from to",
        "в",
        "каждый",
        "every",
        "по",
        "9" * 50,
        "а" * 500,
        "book " * 200,
        "с 18:61 до 19:99",
        "at 99pm",
        "27.13",
        "0/0",
        "0000-00-00",
        "2026-13-45",
        "31.02.2026",
        "на 0 человек",
        "на -5 человек",
        "0 аудиторий",
        "100 аудиторий",
        "for 0 minutes",
        "на 100 часов",
        "😀 забронируй 🏫",
        "забронируй\u00a0аудиторию\u00a0завтра",
        "Ё-моё, завтра с 18 до 20",
    ],
)
def test_odd_input_never_crashes(text: str) -> None:
    _check(decide(text))


def test_empty_is_unknown() -> None:
    decision = decide("")
    assert decision.intent == "unknown"
    assert decision.slots.model_dump(exclude_none=True) == {}
    assert decision.lang == "en"


@pytest.mark.parametrize("text", ["с 25 до 26", "забронируй аудиторию завтра с 25 до 26"])
def test_invalid_times_rejected(text: str) -> None:
    decision = decide(text)
    assert decision.slots.start is None and decision.slots.end is None


@pytest.mark.parametrize("hours", range(1, 24))
def test_ranges_always_increase(hours: int) -> None:
    for other in range(1, 24):
        decision = decide(f"забронируй аудиторию завтра с {hours} до {other}")
        _check(decision)


@pytest.mark.parametrize("days_ahead", range(0, 60, 3))
def test_parse_is_deterministic_for_any_now(days_ahead: int) -> None:
    now = NOW + timedelta(days=days_ahead, hours=days_ahead)
    first = parse("забронируй в следующий четверг с 18 до 20", now=now, tz=TZ, places=PLACES)
    again = parse("забронируй в следующий четверг с 18 до 20", now=now, tz=TZ, places=PLACES)
    assert first == again
    assert first.slots.date is not None
    assert first.slots.date.weekday() == 3
    today = now.astimezone(TZ).date()
    assert 1 <= (first.slots.date - today).days <= 13


def test_naive_now_is_taken_as_local() -> None:
    naive = datetime(2026, 11, 23, 23, 30)
    decision = parse("book a room today 10-12", now=naive, tz=ZoneInfo("Asia/Tokyo"), places=PLACES)
    assert str(decision.slots.date) == "2026-11-23"


@pytest.mark.parametrize(
    ("text", "lang"),
    [("забронируй", "ru"), ("book", "en"), ("book аудиторию", "ru"), ("123", "en")],
)
def test_language(text: str, lang: str) -> None:
    from core.nlu import detect_lang

    assert detect_lang(text) == lang
    assert decide(text).lang == lang


def test_decision_round_trips_through_pydantic() -> None:
    decision = decide("каждый понедельник бронируй 405 с 18 до 20")
    copy = Decision.model_validate_json(decision.model_dump_json())
    assert copy == decision
    assert decision.slots.model_dump(mode="json", exclude_none=True)["start"] == "18:00"


def test_english_question_for_english_text() -> None:
    decision = decide("book a room tomorrow from 10")
    assert decision.missing == ["end"]
    assert decision.clarification_question == "Until what time?"
