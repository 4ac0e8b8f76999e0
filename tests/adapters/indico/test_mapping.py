"""Indico's models and failures → the port's, without a server."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from adapters.indico import errors as ie
from adapters.indico import mapping
from adapters.indico import models as im
from core.site.errors import LoginFailed, PortalUnavailable
from scenarios.booking.errors import BookingRejected, SlotTaken


def _room(room_id: int, building: str = "7", number: str = "701", **extra: object) -> im.Room:
    fields: dict[str, object] = {
        "id": room_id,
        "name": f"{building}/7-{number}",
        "full_name": f"{building}/7-{number}",
        "building": building,
        "floor": "7",
        "number": number,
        "location_id": 1,
        "location_name": "Университет",
        "is_reservable": True,
        "reservations_need_confirmation": False,
        "max_advance_days": 30,
        "bookable_hours": [im.HoursRange(start=time(8, 0), end=time(22, 0))],
        "can_book": True,
        "can_prebook": True,
    }
    return im.Room.model_validate(fields | extra)


def test_catalogue_names_numbered_buildings_and_marks_approval_rooms() -> None:
    rooms = (
        _room(1),
        _room(2, number="702", max_advance_days=10),
        _room(3, building="3", number="202", can_book=False, reservations_need_confirmation=True),
        _room(4, building="Библиотека", number="101", can_book=False, can_prebook=False),
    )
    found = mapping.catalogue(im.Catalogue(rooms=rooms))
    assert [(b.code, b.name, b.name_en) for b in found.buildings] == [
        ("7", "Корпус 7", "Building 7"),
        ("3", "Корпус 3", "Building 3"),
    ]
    assert [r.id for r in found.rooms] == ["1", "2", "3"]  # 4: not bookable by the user
    approval = found.rooms[2]
    assert approval.needs_approval and not found.rooms[0].needs_approval
    # Indico refuses advance_days >= max_advance_days: the port's day <= today + horizon.
    assert (found.rooms[0].horizon_days, found.rooms[1].horizon_days) == (29, 9)
    rules = found.rules
    assert (rules.opens, rules.closes, rules.step_minutes) == (time(8, 0), time(22, 0), 30)
    assert (rules.longest_minutes, rules.horizon_days, rules.rooms_per_booking) == (840, 29, 1)


def test_busy_intervals_are_clipped_merged_and_mine_is_known() -> None:
    day = date(2030, 5, 6)

    def busy(start: int, end: int, resv: int | None) -> im.Busy:
        return im.Busy(
            start=datetime.combine(day, time(start)),
            end=datetime.combine(day, time(end)),
            kind=im.BusyKind.BOOKING,
            reservation_id=resv,
        )

    found = im.RoomAvailability(
        room_id=1,
        day=day,
        start=datetime.combine(day, time(8)),
        end=datetime.combine(day, time(22)),
        available=False,
        busy=(busy(10, 12, 5), busy(11, 13, 6), busy(18, 20, 7)),
    )
    assert mapping.busy_intervals(found, {7}) == (
        [(time(10), time(13)), (time(18), time(20))],
        [(time(18), time(20))],
    )


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ie.BeyondHorizon("You cannot book this room more than 30 days in advance"), "too_far"),
        (ie.SpansMidnight("must end on the day it starts"), "spans_midnight"),
        (ie.StartsInPast("starts in the past"), "in_past"),
        (ie.OutsideBookableHours("cannot be booked at this time"), "outside_hours"),
        (ie.NotAllowed("no"), "not_allowed"),
        (ie.Missing("gone"), "not_found"),
    ],
)
def test_refusals_keep_indicos_text_under_the_ports_code(error: ie.IndicoError, code: str) -> None:
    mapped = mapping.port_error(error)
    assert isinstance(mapped, BookingRejected)
    assert (mapped.code, mapped.message) == (code, error.message)


def test_other_failures() -> None:
    assert isinstance(mapping.port_error(ie.SlotOccupied("no valid occurrences")), SlotTaken)
    assert isinstance(mapping.port_error(ie.SystemUnavailable("HTTP 500")), PortalUnavailable)
    assert isinstance(mapping.port_error(ie.LoginRefused("Invalid")), LoginFailed)


def test_a_named_building_keeps_indicos_name() -> None:
    found = mapping.catalogue(im.Catalogue(rooms=(_room(1, building="Библиотека"),)))
    assert [(b.code, b.name, b.name_en) for b in found.buildings] == [
        ("Библиотека", "Библиотека", "")
    ]


def test_a_booking_names_its_building_as_the_catalogue_does() -> None:
    made = im.Booking(
        id=9,
        room_id=1,
        start=datetime(2030, 5, 6, 18),
        end=datetime(2030, 5, 6, 20),
        reason="club",
        state=im.BookingState.ACCEPTED,
    )
    found = mapping.booking(made, {1: _room(1)})
    assert (found.building, found.building_name, found.room) == ("7", "Корпус 7", "701")
