"""Booking rules, one test per rule."""

from __future__ import annotations

from datetime import datetime

import pytest

from portal.clock import MSK
from portal.data import room
from portal.errors import BookingRejected
from portal.rules import validate

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=MSK)
ROOM = room("main-405")


def check(**overrides: str) -> None:
    form = {"day": "2026-11-26", "start": "18:00", "end": "20:00", "purpose": "Клуб"}
    form |= {"attendees": "10"} | overrides
    validate(room=ROOM, now=NOW, **form)


def test_a_good_request_is_normalised() -> None:
    checked = validate(
        room=ROOM, day="2026-11-26", start="9:00", end="13:00", purpose=" Клуб ",
        attendees="", now=NOW,
    )  # fmt: skip
    assert (checked.start, checked.end, checked.purpose, checked.attendees) == (
        "09:00",
        "13:00",
        "Клуб",
        1,
    )


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"start": "07:30", "end": "09:00"}, "outside_hours"),
        ({"start": "21:00", "end": "22:30"}, "outside_hours"),
        ({"start": "18:15", "end": "19:00"}, "not_aligned"),
        ({"start": "18:00", "end": "18:45"}, "not_aligned"),
        ({"start": "10:00", "end": "14:30"}, "too_long"),
        ({"day": "2026-11-22"}, "in_past"),
        ({"day": "2026-11-23", "start": "08:00", "end": "09:30"}, "in_past"),
        ({"day": "2026-12-08"}, "too_far"),
        ({"attendees": str(ROOM.capacity + 1)}, "over_capacity"),
        ({"attendees": "0"}, "bad_attendees"),
        ({"attendees": "много"}, "bad_attendees"),
        ({"purpose": "   "}, "purpose_required"),
        ({"start": "20:00", "end": "18:00"}, "bad_time"),
        ({"day": "26.11.2026"}, "bad_time"),
    ],
)
def test_each_rule_rejects_with_its_code(overrides: dict[str, str], code: str) -> None:
    with pytest.raises(BookingRejected) as caught:
        check(**overrides)
    assert caught.value.code == code
    assert caught.value.message  # a Russian sentence for the page


def test_the_edges_are_allowed() -> None:
    check(day="2026-12-07", start="08:00", end="12:00")  # 14 days ahead, exactly 4 hours
    check(day="2026-11-23", start="09:00", end="09:30")  # today, starting now
    check(start="21:30", end="22:00", attendees=str(ROOM.capacity))
