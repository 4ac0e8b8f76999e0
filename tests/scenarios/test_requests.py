"""The rooms one request booked are one request in «Мои брони»: by their run's mark, and
bookings made elsewhere by building and time."""

from __future__ import annotations

import datetime as dt

from scenarios.booking.manage import Chosen, ManageSlots, group_requests
from scenarios.booking.marks import PURPOSE, purpose_for, run_of
from scenarios.booking.models import Booking

DAY = dt.date(2026, 11, 26)


def booking(number: str, room: str, purpose: str, *, start: int = 18, **extra: object) -> Booking:
    return Booking.model_validate(
        {
            "number": number,
            "building": "main",
            "room": room,
            "day": DAY,
            "start": dt.time(start),
            "end": dt.time(start + 2),
            "purpose": purpose,
            **extra,
        }
    )


def test_the_run_mark_is_read_back_and_nothing_else_is_taken_for_one() -> None:
    assert run_of(purpose_for("ab12cd")) == "ab12cd"
    assert run_of("Репетиция · #ab12cd") == ""  # not our purpose: not our mark
    assert run_of(PURPOSE) == ""


def test_bookings_are_grouped_by_request_in_time_order() -> None:
    mine, theirs = purpose_for("run1"), purpose_for("run2")
    bookings = [
        booking("9", "301", "by hand", start=10),
        booking("3", "203", mine),
        booking("1", "201", mine),
        booking("2", "202", mine),
        booking("4", "204", theirs),  # the same slot, another request
        booking("5", "205", mine, status="cancelled"),
        booking("8", "302", "by hand", start=10),
    ]
    groups = group_requests(bookings, ManageSlots())
    assert [[b.number for b in group] for group in groups] == [["9", "8"], ["1", "2", "3"], ["4"]]
    assert [b.room for b in groups[0]] == ["301", "302"]


def test_only_what_the_slots_name_is_grouped() -> None:
    bookings = [booking(str(n), str(200 + n), purpose_for("run1")) for n in range(1, 4)]
    only = group_requests(bookings, ManageSlots(room=["202"]))
    assert [[b.number for b in group] for group in only] == [["2"]]
    assert group_requests(bookings, ManageSlots(date=DAY + dt.timedelta(days=1))) == []


def test_a_cancel_checkpointed_with_one_number_still_resumes() -> None:
    chosen = Chosen.model_validate({"number": "595", "text": "201, Главный корпус"})
    assert chosen.numbers == ["595"] and chosen.text == "201, Главный корпус"
