"""Catalogues for tests: the reference portal's (as its site shows it, plus its profile),
one with buildings named unlike ours, and one with numbered buildings."""

from __future__ import annotations

from core.nlu.places import Places
from core.site.models import Building, Catalogue, Room
from portal.data import BUILDINGS as PORTAL_BUILDINGS

__all__ = [
    "FOREIGN_CATALOGUE",
    "NUMBERED_CATALOGUE",
    "REFPORTAL_CATALOGUE",
    "foreign_places",
    "numbered_places",
    "refportal_places",
]

_LISTED = (
    Room(id="main-301", building="main", number="301", floor=3, capacity=30),
    Room(id="main-302", building="main", number="302", floor=3, capacity=30),
    Room(id="chaikovsky-101", building="chaikovsky", number="101", floor=1, capacity=20),
    Room(id="lab-207", building="lab", number="207", floor=2, capacity=16),
)


def _portal_rooms(listed: tuple[Room, ...]) -> tuple[Room, ...]:
    """The rest of the reference portal's rooms, so that a room number the portal has is
    known here too (an unknown one is asked about)."""
    taken = {room.id for room in listed}
    return tuple(
        Room(id=r.id, building=r.building, number=r.number, floor=r.floor, capacity=r.capacity)
        for building in PORTAL_BUILDINGS
        for r in building.rooms
        if r.id not in taken
    )


REFPORTAL_CATALOGUE = Catalogue(
    system="refportal",
    buildings=(
        Building(
            code="main",
            name="Главный корпус",
            name_en="Main building",
            words=("гк", "главк", "центральный", "центральном", "центрального", "main", "central"),
        ),
        Building(
            code="chaikovsky",
            name="Корпус на Чайковского",
            name_en="Chaikovsky building",
            words=(
                "чайка",
                "чайке",
                "chaikovsky",
                "chaikovskogo",
                "tchaikovsky",
                "tchaikovskogo",
                "chaykovskogo",
                "chaikovskiy",
                "tchaikovskiy",
            ),
        ),
        Building(
            code="lab",
            name="Лабораторный корпус",
            name_en="Lab building",
            words=("лаб", "лабе", "лабы", "лабка", "lab", "labs", "laboratory", "laboratories"),
        ),
    ),
    rooms=_LISTED + _portal_rooms(_LISTED),
)

FOREIGN_CATALOGUE = Catalogue(
    system="indico",
    buildings=(
        Building(code="b", name="Корпус Б"),
        Building(code="lib", name="Библиотека"),
    ),
)

NUMBERED_CATALOGUE = Catalogue(
    system="indico",
    buildings=(
        Building(code="7", name="7"),
        Building(code="3", name="Корпус 3"),
        Building(code="lib", name="Библиотека", name_en="Library"),
    ),
)


def refportal_places() -> Places:
    return Places.from_catalogue(REFPORTAL_CATALOGUE)


def foreign_places() -> Places:
    return Places.from_catalogue(FOREIGN_CATALOGUE)


def numbered_places() -> Places:
    return Places.from_catalogue(NUMBERED_CATALOGUE)
