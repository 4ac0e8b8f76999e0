"""What ``clubman learn`` reads of the operator's answers and of the pages' words
(adapters/profile/learn/teach.py, values.py)."""

from __future__ import annotations

from datetime import time

from adapters.profile.learn.teach import Slot, parse_slot
from adapters.profile.learn.values import clocks_in


def test_a_room_named_in_words_is_all_before_the_times() -> None:
    """An English MRBS names its rooms «Room N-113»: the room is the whole name."""
    assert parse_slot("Room N-113 16:00-17:00") == Slot("Room N-113", time(16), time(17))
    assert parse_slot(" 101 18:00 – 19:00 ") == Slot("101", time(18), time(19))
    assert parse_slot("18:00-19:00") is None  # no room
    assert parse_slot("101 19:00-18:00") is None


def test_a_clock_is_read_with_its_am_or_pm() -> None:
    """An English MRBS writes «Saturday, December 12, 2026 at 4:00 PM»: 16:00, as the
    profile's reader reads it, not 4:00."""
    assert clocks_in("Saturday, December 12, 2026 at 4:00 PM") == [time(16)]
    assert clocks_in("9:15 a.m. – 12:00 p.m.") == [time(9, 15), time(12)]
    assert clocks_in("18:00 → 19:00") == [time(18), time(19)]
    assert clocks_in("12 декабря 2026 г. в 18:00") == [time(18)]
