"""A building's day read from the call its page makes (``availability.request``): an
answer shaped as Indico's ``/rooms/api/timeline`` gives, read by the Indico profile; an
answer unlike the profile's description is not the day (the page is read instead)."""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from typing import Any

import pytest

from adapters.profile.calls import DayRequest
from adapters.profile.daycall import busy_in
from adapters.profile.loader import load_site_profile
from tests.adapters.profile.answers import changed

PROFILE = Path(__file__).resolve().parents[3] / "profiles" / "indico.yaml"
DAY = date(2026, 12, 1)


def _occurrence(start: str, end: str) -> dict[str, Any]:
    return {"start_dt": start, "end_dt": end, "reservation": {"id": 1, "booking_reason": "x"}}


def _part(**held: Any) -> dict[str, Any]:
    """A room's part of the answer: nothing held but ``held`` and the unbookable hours."""
    empty: dict[str, Any] = {
        "bookings": {}, "pre_bookings": {}, "nonbookable_periods": {}, "blockings": {},
        "overridable_blockings": {}, "candidates": {}, "conflicts": {},
        "unbookable_hours": [
            {"start_time": "00:00", "end_time": "08:00"},
            {"start_time": "22:00", "end_time": "00:00"},
        ],
    }  # fmt: skip
    return empty | held


ANSWER = {
    "availability": [
        [1, _part(
            bookings={"2026-12-01": [_occurrence("2026-12-01T10:00", "2026-12-01T11:30")]},
            pre_bookings={"2026-12-01": [_occurrence("2026-12-01T18:00", "2026-12-01T19:00:00")]},
        )],
        [2, _part(
            nonbookable_periods={"2026-12-01": [
                {"start_dt": "2026-11-30T12:00:00", "end_dt": "2026-12-01T09:30:00"},
            ]},
        )],
        [3, _part(blockings={"2026-12-01": [{"room": {"id": 3}, "state": "accepted"}]})],
        [4, _part()],
    ],
    "date_range": ["2026-12-01"],
}  # fmt: skip
OUTSIDE = [(time(0), time(8)), (time(22), time(23, 59))]


@pytest.fixture(scope="module")
def request_() -> DayRequest:
    request = load_site_profile(PROFILE).profile.availability.request
    assert request is not None
    return request


def test_every_kind_of_busy_time_of_every_room_asked_about_is_read(request_: DayRequest) -> None:
    assert busy_in(ANSWER, request_, {"1", "2", "3", "4"}, DAY) == {
        "1": [(time(0), time(8)), (time(10), time(11, 30)), (time(18), time(19)),
              (time(22), time(23, 59))],
        "2": [(time(0), time(9, 30)), (time(22), time(23, 59))],  # cut to the day
        "3": [(time(0), time(23, 59))],  # a blocking holds the whole day
        "4": OUTSIDE,
    }  # fmt: skip


def test_a_room_not_asked_about_is_left_out(request_: DayRequest) -> None:
    assert busy_in(ANSWER, request_, {"4"}, DAY) == {"4": OUTSIDE}


@pytest.mark.parametrize(
    ("path", "new"),
    [
        (("availability",), None),  # the rooms' parts elsewhere
        (("availability", 3, 0), 9),  # room 4 has no part
        (("availability", 3, 1, "unbookable_hours"), None),  # a kind of busy time missing
        (("availability", 0, 1, "bookings", "2026-12-01", 0, "end_dt"), "soon"),
        (("availability", 0, 1, "bookings", "2026-12-01", 0, "start_dt"), None),
        (("availability", 1, 1, "nonbookable_periods"), [{"start_dt": 5}]),
    ],
    ids=["no-parts", "room-missing", "kind-missing", "end-unreadable", "no-start", "bad-period"],
)
def test_an_answer_unlike_the_profiles_description_is_not_the_day(
    request_: DayRequest, path: tuple[str | int, ...], new: Any
) -> None:
    assert busy_in(changed(ANSWER, path, new), request_, {"1", "2", "3", "4"}, DAY) is None
