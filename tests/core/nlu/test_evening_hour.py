"""The afternoon rule for a bare hour (issue 31): «в 7» with nothing else is 19:00, since
rooms are booked in the afternoon and evening. The times tests tried ranges («с 6 до 8»)
but never a lone hour, so narrowing the rule to 1–6 was caught only by a places test;
here each hour from 0 to 12 is tried on its own, both edges of 1–7 included."""

from __future__ import annotations

from datetime import time

import pytest

from core.nlu.analysis import analyze
from core.nlu.times import Clock, extract_times, resolve_hour
from tests.support.reading import decide


@pytest.mark.parametrize(
    ("hour", "read"),
    [(0, 0), (1, 13), (2, 14), (5, 17), (6, 18), (7, 19), (8, 8), (9, 9), (11, 11), (12, 12)],
)
def test_a_bare_hour_from_1_to_7_is_in_the_afternoon(hour: int, read: int) -> None:
    assert extract_times(analyze(f"в {hour}"), set()) == (time(read), None)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("в 7", time(19)),
        ("at 7", time(19)),
        ("в семь", time(19)),
        ("в 7:30", time(19, 30)),
        ("в 07", time(7)),  # a leading zero: the 24-hour clock
        ("в 07:00", time(7)),
        ("в 7 утра", time(7)),
        ("в 7 вечера", time(19)),
    ],
)
def test_the_rule_yields_to_a_leading_zero_and_to_a_time_of_day_word(
    text: str, start: time
) -> None:
    assert extract_times(analyze(text), set()) == (start, None)


def test_a_booking_at_7_for_an_hour_is_19_to_20() -> None:
    decision = decide("забронируй аудиторию завтра в 7 на час")
    assert (decision.slots.start, decision.slots.end) == (time(19), time(20))


@pytest.mark.parametrize(
    ("clock", "default", "hour"),
    [
        (Clock(7, 0, None, False, True, 1), None, 19),
        (Clock(1, 0, None, False, True, 1), None, 13),
        (Clock(8, 0, None, False, True, 1), None, 8),
        (Clock(0, 0, None, False, True, 1), None, 0),
        (Clock(7, 0, None, True, True, 1), None, 7),  # padded
        (Clock(7, 0, None, False, True, 1), "am", 7),  # «утром» somewhere in the text
        (Clock(7, 0, None, False, True, 1), "pm", 19),
        (Clock(12, 0, "am", False, True, 1), None, 0),
        (Clock(12, 0, "pm", False, True, 1), None, 12),
        (Clock(7, 0, "night", False, True, 1), None, 19),
        (Clock(11, 0, "night", False, True, 1), None, 23),
        (Clock(2, 0, "night", False, True, 1), None, 2),
    ],
)
def test_resolve_hour(clock: Clock, default: str | None, hour: int) -> None:
    assert resolve_hour(clock, default) == hour
