"""The examples from the NLU issue, checked exactly (now = Mon 2026-11-23 10:00 MSK)."""

from __future__ import annotations

import pytest

from tests.support.reading import decide

EXAMPLES: list[tuple[str, str, dict[str, object]]] = [
    (
        "забронируй две аудитории подряд на послезавтра с 9 до 11",
        "book_rooms",
        {"date": "2026-11-25", "start": "09:00", "end": "11:00", "rooms": 2, "adjacent": True},
    ),
    (
        "нужна 301 в среду с 12:00 до 13:30",
        "book_rooms",
        {"date": "2026-11-25", "room": ["301"], "start": "12:00", "end": "13:30", "rooms": 1},
    ),
    (
        "book three rooms next to each other on Thursday from 2pm to 4pm",
        "book_rooms",
        {"date": "2026-11-26", "start": "14:00", "end": "16:00", "rooms": 3, "adjacent": True},
    ),
    (
        "reserve room 207 in Chaikovsky tomorrow 9-10",
        "book_rooms",
        {
            "building": "chaikovsky",
            "room": ["207"],
            "date": "2026-11-24",
            "start": "09:00",
            "end": "10:00",
            "rooms": 1,
        },
    ),
    ("мои бронирования", "list_bookings", {}),
    ("what did I book for tomorrow", "list_bookings", {"date": "2026-11-24"}),
    ("отмени бронь на пятницу", "cancel_booking", {"date": "2026-11-27"}),
    (
        "каждый понедельник бронируй 405 с 18 до 20",
        "schedule_booking",
        {
            "room": ["405"],
            "rooms": 1,
            "start": "18:00",
            "end": "20:00",
            "recurrence": {"freq": "weekly", "weekdays": ["mon"]},
        },
    ),
    (
        "отключи автобронь по средам",
        "cancel_schedule",
        {"recurrence": {"freq": "weekly", "weekdays": ["wed"]}},
    ),
    ("help", "help", {}),
    ("что умеешь", "help", {}),
    ("какая сегодня погода", "unknown", {}),
    (
        "забронируй 3 аудитории рядом в этот четверг с 18 до 20",
        "book_rooms",
        {"date": "2026-11-26", "start": "18:00", "end": "20:00", "rooms": 3, "adjacent": True},
    ),
    (
        "book two adjacent rooms next Friday 10-12",
        "book_rooms",
        {"date": "2026-12-04", "start": "10:00", "end": "12:00", "rooms": 2, "adjacent": True},
    ),
    ("какие у меня регулярные брони", "list_schedules", {}),
    ("покажи расписание автоброней", "list_schedules", {}),
]


@pytest.mark.parametrize(("text", "intent", "slots"), EXAMPLES)
def test_issue_example(text: str, intent: str, slots: dict[str, object]) -> None:
    decision = decide(text).to_json()
    assert decision["intent"] == intent
    assert decision["slots"] == slots
    assert decision["missing"] == []
    assert decision["next_action"] == "execute"
    assert decision["clarification_question"] is None


def test_missing_slots_are_asked_in_order() -> None:
    decision = decide("забронируй аудиторию на 60 человек в главном корпусе").to_json()
    assert decision == {
        "intent": "book_rooms",
        "confidence": 0.95,
        "slots": {"building": "main", "capacity": 60, "rooms": 1},
        "missing": ["date", "start", "end"],
        "next_action": "clarify",
        "clarification_question": "На какую дату?",
        "lang": "ru",
        "negated": False,
    }


def test_flagship_has_no_building_and_needs_none() -> None:
    decision = decide("забронируй 3 аудитории рядом в этот четверг с 18 до 20")
    assert decision.slots.building is None
    assert decision.next_action == "execute"
    assert decision.confidence >= 0.9
