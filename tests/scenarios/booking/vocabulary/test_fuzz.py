"""Fuzzing the parser (issue 16): 10 000 generated texts a run never crash it, and what
it reads is never silently changed.

Texts are random unicode, runs of digits, and booking-like commands assembled from a
RU/EN vocabulary with huge, negative and zero numbers, «через N дней», times and
buildings. ``derandomize`` makes the run the same in CI every time.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.nlu import MAX_ROOMS, Decision
from scenarios.booking.vocabulary import BookingIntent
from tests.support.fuzz_texts import TEXTS
from tests.support.reading import NOW, decide

TODAY = NOW.date()
_WITH_YEAR = re.compile(r"\d[./-]\d+[./-]\d|\d{4}")  # «27.11.1900», «1 мая 1900»


def _check(text: str, decision: Decision) -> None:
    json.dumps(decision.to_json(), ensure_ascii=False)
    assert (decision.next_action == "clarify") == bool(decision.missing)
    assert (decision.clarification_question is None) == (not decision.missing)
    s = decision.slots
    if s.start is not None and s.end is not None:
        assert s.start < s.end
    booking = decision.intent in (BookingIntent.BOOK_ROOMS, BookingIntent.SCHEDULE_BOOKING)
    if s.rooms is not None and not 1 <= s.rooms <= MAX_ROOMS:
        # kept as written and asked first, never clamped
        assert booking and decision.missing[0] == "rooms", text
    if booking and s.capacity is not None and s.capacity < 1:
        assert decision.missing[0] in ("rooms", "capacity"), text
    if s.date is not None and not _WITH_YEAR.search(text):
        # without a written year a date is today or later (a week back at most for
        # «вчера»/"last Monday"); far ones past the calendar are dropped and asked
        assert s.date >= TODAY - timedelta(days=7), text


@settings(
    max_examples=10_000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(TEXTS)
def test_parse_never_crashes_nor_clamps(text: str) -> None:
    _check(text, decide(text))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(min_value=0, max_value=4096))
def test_relative_days_are_today_plus_n_or_asked(days: int) -> None:
    decision = decide(f"забронируй аудиторию через {days} дней с 18 до 20")
    assert decision.slots.date == TODAY + timedelta(days=days)
