"""Regressions from issue 16: input that crashed the parser or silently changed the
request (a count clamped to one room, a capacity dropped)."""

from __future__ import annotations

import pytest

from scenarios.booking.vocabulary import BookingIntent
from tests.support.reading import decide


@pytest.mark.parametrize(
    "text",
    [
        "забронируй аудиторию " + "9" * 309 + " завтра с 18 до 20",
        "9" * 400,
        "в " + "9" * 5000,
        "book " + "1" * 309 + " rooms tomorrow 10-12",
        "на " + "7" * 400 + " человек",
        "в 18 на " + "9" * 320 + " часов",
        "миллион " * 60 + "аудиторий",
    ],
)
def test_digit_runs_past_float_range_do_not_crash(text: str) -> None:
    decision = decide(text)
    if decision.slots.rooms is not None and decision.slots.rooms > 20:
        assert decision.missing[0] == "rooms"


@pytest.mark.parametrize(
    "text",
    [
        "забронируй аудиторию через 3000000 дней с 18 до 20",
        "book a room in 500000 weeks 10-12",
        "book a room in " + "9" * 12 + " days 10-12",
    ],
)
def test_date_past_the_calendar_is_asked_not_crashed(text: str) -> None:
    decision = decide(text)
    assert decision.intent == BookingIntent.BOOK_ROOMS
    assert decision.slots.date is None
    assert decision.missing[0] == "date"


def test_near_offsets_still_read() -> None:
    assert decide("забронируй аудиторию через 3 дня с 18 до 20").slots.date is not None
    assert str(decide("book a room in 2 weeks 10-12").slots.date) == "2026-12-07"


@pytest.mark.parametrize(
    ("text", "rooms", "question"),
    [
        (
            "забронируй 100000 аудиторий завтра с 18 до 20",
            100000,
            "Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?",
        ),
        (
            "book 99 rooms tomorrow 10-12",
            99,
            "I can book up to 20 rooms at once. How many rooms do you need?",
        ),
        (
            "забронируй миллион аудиторий завтра с 18 до 20",
            1_000_000,
            "Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?",
        ),
        (
            "book two thousand rooms tomorrow 10-12",
            2000,
            "I can book up to 20 rooms at once. How many rooms do you need?",
        ),
        (
            "забронируй 150 аудиторий завтра с 18 до 20",
            150,
            "Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?",
        ),
        (
            "забронируй -5 аудиторий завтра с 18 до 20",
            -5,
            "Число аудиторий должно быть от 1 до 20. Сколько аудиторий нужно?",
        ),
        (
            "book 0 rooms tomorrow 10-12",
            0,
            "The number of rooms must be 1 to 20. How many rooms do you need?",
        ),
    ],
)
def test_room_count_out_of_bounds_is_asked_never_clamped(
    text: str, rooms: int, question: str
) -> None:
    decision = decide(text)
    assert decision.intent == BookingIntent.BOOK_ROOMS
    assert decision.slots.rooms == rooms
    assert decision.missing[0] == "rooms"
    assert decision.next_action == "clarify"
    assert decision.clarification_question == question


def test_room_numbers_before_a_singular_noun_stay_room_numbers() -> None:
    decision = decide("забронируй 301 аудиторию завтра с 18 до 20")
    assert decision.slots.room == ["301"]
    assert decision.slots.rooms == 1
    assert decision.next_action == "execute"


@pytest.mark.parametrize(
    ("text", "capacity"),
    [
        ("забронируй аудиторию на 100000 человек завтра с 18 до 20", 100000),
        ("book a room for 5000 people tomorrow 10-12", 5000),
    ],
)
def test_large_capacity_is_kept(text: str, capacity: int) -> None:
    # the parser does not know the rooms; the booking rules ask (tests/scenarios)
    assert decide(text).slots.capacity == capacity


def test_negative_capacity_is_asked() -> None:
    decision = decide("забронируй аудиторию на -5 человек завтра с 18 до 20")
    assert decision.slots.capacity == -5
    assert decision.missing == ["capacity"]
    assert decision.clarification_question == (
        "Число человек должно быть больше нуля. На сколько человек?"
    )


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("забронируй аудиторию завтра с 18 -20", "18:00", "20:00"),
        ("book a room 10 -12", "10:00", "12:00"),
    ],
)
def test_a_dash_after_a_number_is_still_a_range(text: str, start: str, end: str) -> None:
    slots = decide(text).slots
    assert (f"{slots.start:%H:%M}", f"{slots.end:%H:%M}") == (start, end)
