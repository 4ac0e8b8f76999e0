"""``BookingPages``: a booking's page read once completes a list's row only while the row
agrees with it. ``Recall``: an item's number is kept only while the list shows the item."""

from __future__ import annotations

from datetime import date, time

from adapters.profile.recall import BookingPages, Recall
from scenarios.booking.models import Booking

DAY = date(2026, 12, 3)


def _booking(**changes: object) -> Booking:
    fields: dict[str, object] = {
        "number": "17", "building": "1", "building_name": "Главный корпус", "room": "101",
        "room_id": "", "day": DAY, "start": time(10), "end": time(11),
        "purpose": "клуб #a1", "status": "active",
    }  # fmt: skip
    return Booking.model_validate(fields | changes)


def test_a_row_that_agrees_with_the_page_read_is_completed() -> None:
    pages = BookingPages()
    pages.remember(_booking())
    row = _booking(building="", building_name="", room="")
    assert pages.complete(row) == _booking()


def test_a_row_that_disagrees_or_was_never_read_is_read_from_its_page() -> None:
    pages = BookingPages()
    pages.remember(_booking())
    blank = {"building": "", "building_name": "", "room": ""}
    assert pages.complete(_booking(**blank, number="18")) is None
    assert pages.complete(_booking(**blank, start=time(12), end=time(13))) is None
    assert pages.complete(_booking(**blank, purpose="другое")) is None
    assert pages.complete(_booking(building="", building_name="", room="102")) is None
    pages.forget("17")
    assert pages.complete(_booking(**blank)) is None


def test_a_cancelled_booking_read_completes_nothing() -> None:
    pages = BookingPages()
    pages.remember(_booking(status="cancelled"))
    assert pages.complete(_booking(building="", building_name="", room="")) is None


def test_a_row_showing_no_number_is_the_one_booking_read_that_agrees_with_it() -> None:
    pages = BookingPages()
    pages.remember(_booking())
    pages.remember(_booking(number="18", start=time(12), end=time(13)))
    assert pages.number_of(_booking(number="")) == "17"
    assert pages.number_of(_booking(number="", start=time(12), end=time(13))) == "18"
    assert pages.number_of(_booking(number="", room="102")) is None


def test_no_number_is_guessed_between_bookings_alike_or_without_a_purpose() -> None:
    pages = BookingPages()
    pages.remember(_booking())
    pages.remember(_booking(number="18", room="102"))
    assert pages.number_of(_booking(number="", room="")) is None  # 17 or 18
    pages.remember(_booking(number="19", day=DAY.replace(day=4), purpose=""))
    assert pages.number_of(_booking(number="", day=DAY.replace(day=4), purpose="")) is None


def test_an_item_the_whole_list_no_longer_shows_loses_its_number() -> None:
    """And its page read with it: a row like it later is not named by that page."""
    recall = Recall(account="club")
    recall.pages.remember(_booking())
    recall.learn("клуб #a1 · 10:00", "17")
    recall.learn("клуб #a2 · 12:00", "18")
    recall.shown({"клуб #a2 · 12:00", "клуб #a3 · 14:00"})
    assert recall.numbers == {"клуб #a2 · 12:00": "18"}
    assert recall.pages.number_of(_booking(number="")) is None
