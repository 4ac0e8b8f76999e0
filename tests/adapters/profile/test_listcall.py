"""«My bookings» read from the call its page makes (``my_bookings.request``): the answer
Indico's list page gets, read by the Indico profile; anything unlike the profile's
description is not a list (the page is read instead)."""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from adapters.profile.listcall import bookings_in
from adapters.profile.loader import load_site_profile
from adapters.profile.model import MyBookings
from adapters.profile.parts import Pick
from tests.adapters.profile.answers import changed

PROFILE = Path(__file__).resolve().parents[3] / "profiles" / "indico.yaml"
NAMES = {"42": "7/7-701", "43": "Библиотека/1-12 Читальный зал"}


def _occurrence(number: int, room: int, start: str, end: str, reason: str) -> dict[str, Any]:
    return {
        "start_dt": start,
        "end_dt": end,
        "state": "valid",
        "is_valid": True,
        "reservation": {
            "id": number, "room_id": room, "booking_reason": reason, "is_accepted": True,
        },
    }  # fmt: skip


ANSWER = {
    "bookings": {
        "2026-12-01": [
            _occurrence(5, 42, "2026-12-01T18:00:00", "2026-12-01T19:30:00", "Шахматы #a1"),
        ],
        "2026-12-03": [
            _occurrence(7, 43, "2026-12-03T10:00:00", "2026-12-03T12:00:00", "Кружок"),
            _occurrence(8, 42, "2026-12-03T21:30:00", "2026-12-03T22:00:00", ""),
        ],
    },
    "rows_left": 3,  # Indico's count: what is listed when all is, else how many are left
}


@pytest.fixture(scope="module")
def listed() -> MyBookings:
    return load_site_profile(PROFILE).profile.my_bookings


def _read(
    listed: MyBookings, answer: Any
) -> list[tuple[str, str, str, date, time, time, str]] | None:
    assert listed.request is not None and listed.building and listed.room
    found = bookings_in(answer, listed.request, NAMES, building=listed.building, room=listed.room)
    if found is None:
        return None
    return [(b.number, b.building, b.room, b.day, b.start, b.end, b.purpose) for b in found]


def test_every_booking_of_every_day_is_read_with_its_room_from_the_sites_names(
    listed: MyBookings,
) -> None:
    assert _read(listed, ANSWER) == [
        ("5", "7", "701", date(2026, 12, 1), time(18), time(19, 30), "Шахматы #a1"),
        ("7", "Библиотека", "12", date(2026, 12, 3), time(10), time(12), "Кружок"),
        ("8", "7", "701", date(2026, 12, 3), time(21, 30), time(22), ""),
    ]


def test_no_bookings_is_an_empty_list(listed: MyBookings) -> None:
    assert _read(listed, {"bookings": {}, "rows_left": 0}) == []


def test_an_answer_of_as_many_as_asked_may_be_a_part_and_is_not_the_list(
    listed: MyBookings,
) -> None:
    assert listed.request is not None and listed.request.at_most == 500
    three = listed.model_copy(update={"request": listed.request.model_copy(update={"at_most": 3})})
    four = listed.model_copy(update={"request": listed.request.model_copy(update={"at_most": 4})})
    assert _read(three, ANSWER) is None
    assert _read(four, ANSWER) is not None


@pytest.mark.parametrize(
    ("path", "new"),
    [
        (("bookings",), None),  # the list elsewhere in the answer
        (("bookings", "2026-12-01", 0, "reservation", "room_id"), 99),  # a room not listed
        (("bookings", "2026-12-01", 0, "reservation", "id"), None),  # no number
        (("bookings", "2026-12-01", 0, "end_dt"), "18:30"),  # not a date-time
        (("bookings", "2026-12-01", 0, "end_dt"), "2026-12-02T10:00:00"),  # two days
        (("bookings", "2026-12-01", 0, "reservation", "booking_reason"), 5),
    ],
    ids=["no-list", "unknown-room", "no-number", "no-time", "two-days", "purpose"],
)
def test_an_answer_unlike_the_profiles_description_is_not_a_list(
    listed: MyBookings, path: tuple[str | int, ...], new: Any
) -> None:
    assert _read(listed, changed(ANSWER, path, new)) is None


def test_a_call_whose_bookings_say_who_made_them_keeps_the_accounts_own(
    listed: MyBookings,
) -> None:
    """A call answering a search (as MRBS's page's is) lists another's booking too: with
    ``request.owner`` read by ``owner``'s regex, only the account's are the list; a
    booking that says no owner is an answer unlike the profile's."""
    assert listed.request is not None and listed.building and listed.room
    request = listed.request.model_copy(update={"owner": "reservation.created_by"})
    owner = (Pick(regex=r"^(\S+)"),)
    answer = changed(ANSWER, ("bookings", "2026-12-01", 0, "reservation", "created_by"),
                     "Club (Клуб робототехники)")  # fmt: skip
    answer = changed(answer, ("bookings", "2026-12-03", 0, "reservation", "created_by"), "ivanov")
    answer = changed(answer, ("bookings", "2026-12-03", 1, "reservation", "created_by"), "club")

    def read(data: Any) -> list[str] | None:
        assert listed.building and listed.room
        found = bookings_in(data, request, NAMES, building=listed.building, room=listed.room,
                            owner=owner, account="club")  # fmt: skip
        return None if found is None else [b.number for b in found]

    assert read(answer) == ["5", "8"]
    nobodys = changed(answer, ("bookings", "2026-12-03", 1, "reservation", "created_by"), None)
    assert read(nobodys) is None


def test_a_list_told_by_its_owner_tells_its_calls_bookings_by_theirs_too(
    listed: MyBookings,
) -> None:
    """Else the fast path would list what the page leaves out (another's booking)."""
    data = listed.model_dump(by_alias=True, exclude_none=True)
    with pytest.raises(ValidationError, match=r"request\.owner"):
        MyBookings.model_validate({**data, "owner": {"column": "Создано"}})
    with pytest.raises(ValidationError, match=r"request\.owner"):
        MyBookings.model_validate({**data, "request": {**data["request"], "owner": "x.by"}})
