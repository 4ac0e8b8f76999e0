"""How far ahead a request may be booked when rooms carry their own limits (Indico's
``max_advance_days``): the scheduler's lead time and the date check read the same."""

from __future__ import annotations

from core.site.models import Building, Catalogue, Room, Rules
from scenarios.booking.schedules.lead import lead_for
from scenarios.booking.settings import SchedulerSettings
from scenarios.booking.texts import days

CATALOGUE = Catalogue(
    system="indico",
    buildings=(Building(code="7", name="7"), Building(code="lib", name="Библиотека")),
    rooms=(
        Room(id="1", building="7", number="701", floor=7, horizon_days=30),
        Room(id="2", building="7", number="702", floor=7, horizon_days=10),
        Room(id="3", building="7", number="703", floor=7),  # the site's default: 14
        Room(id="4", building="lib", number="101", floor=1, horizon_days=60),
    ),
    rules=Rules(horizon_days=14),
)


def test_named_rooms_are_bound_by_the_nearest_of_their_limits() -> None:
    assert CATALOGUE.horizon_for("7", ["702"]) == 10
    assert CATALOGUE.horizon_for("7", ["701", "703"]) == 14
    assert CATALOGUE.horizon_for("7", ["701"]) == 30


def test_a_building_reaches_as_far_as_its_farthest_room() -> None:
    assert CATALOGUE.horizon_for("7") == 30
    assert CATALOGUE.horizon_for("7", ["999"]) == 30  # a number the building lacks


def test_any_or_an_unknown_building_reaches_as_far_as_any_room() -> None:
    assert CATALOGUE.horizon_for(None) == 60
    assert CATALOGUE.horizon_for("any") == 60


def test_the_scheduler_books_a_rooms_date_no_earlier_than_the_room_allows() -> None:
    settings = SchedulerSettings()
    assert lead_for(settings, CATALOGUE, {"building": "7", "room": ["702"]}) == 10
    assert lead_for(settings, CATALOGUE, {"building": "lib", "rooms": 1}) == 60
    assert lead_for(SchedulerSettings(lead_days=3), CATALOGUE, {"building": "7"}) == 3


def test_days_ahead_are_said_in_the_right_russian_form() -> None:
    said = [days(n, "ru") for n in (1, 2, 5, 11, 14, 21, 22, 30)]
    assert said == [
        "1 день",
        "2 дня",
        "5 дней",
        "11 дней",
        "14 дней",
        "21 день",
        "22 дня",
        "30 дней",
    ]
    assert [days(n, "en") for n in (1, 30)] == ["1 day", "30 days"]
