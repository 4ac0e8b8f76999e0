"""Deterministic reference data: buildings, rooms, users and seeded bookings.

Room ids in URLs are ``<building>-<number>``, e.g. ``main-405``; they never change.
Seeding: ``seed=None`` or ``seed=0`` means no seeded bookings; any other integer
gives the same bookings for the same portal "today" (days today … today+14).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from portal.clock import fmt_hhmm
from portal.errors import UnknownObject

__all__ = [
    "BOOKING_HORIZON_DAYS",
    "BUILDINGS",
    "USERS",
    "Building",
    "Room",
    "SeedBooking",
    "User",
    "all_rooms",
    "building",
    "room",
    "seed_bookings",
]

BOOKING_HORIZON_DAYS = 14
_CAPACITIES = (20, 24, 30, 36, 40, 48, 60, 80, 100, 120)


@dataclass(frozen=True, slots=True)
class Room:
    id: str
    building: str
    number: str
    floor: int
    capacity: int


@dataclass(frozen=True, slots=True)
class Building:
    code: str
    name: str
    rooms: tuple[Room, ...]


@dataclass(frozen=True, slots=True)
class User:
    username: str
    password: str  # demo credentials of a fake portal, published in the docs on purpose
    full_name: str


@dataclass(frozen=True, slots=True)
class SeedBooking:
    user: str
    room_id: str
    day: date
    start: str
    end: str
    purpose: str
    attendees: int


def _rooms(code: str, index: int, floors: dict[int, range]) -> tuple[Room, ...]:
    rooms = []
    for floor, numbers in floors.items():
        for number in numbers:
            capacity = _CAPACITIES[(number * 7 + index * 3) % len(_CAPACITIES)]
            rooms.append(Room(f"{code}-{number}", code, str(number), floor, capacity))
    return tuple(rooms)


BUILDINGS: tuple[Building, ...] = (
    Building(
        "main",
        "Главный корпус",
        _rooms("main", 0, {2: range(201, 211), 3: range(301, 311), 4: range(401, 411)}),
    ),
    Building(
        "chaikovsky",
        "Корпус на Чайковского",
        _rooms("chaikovsky", 1, {1: range(101, 109), 2: range(201, 209)}),
    ),
    Building("lab", "Лабораторный корпус", _rooms("lab", 2, {5: range(501, 507)})),
)

USERS: dict[str, User] = {
    user.username: user
    for user in (
        User("club", "club-demo", "Студенческий клуб"),
        User("chess", "chess-demo", "Шахматный клуб"),
        User("ivanov", "ivanov-demo", "Иванов И. И."),
        User("petrova", "petrova-demo", "Петрова А. С."),
        User("dekanat", "dekanat-demo", "Деканат ФИТ"),
    )
}
_SEED_OWNERS = ("ivanov", "petrova", "dekanat")
_PURPOSES = ("Лекция", "Семинар", "Консультация", "Заседание кафедры", "Экзамен", "Репетиция")

_BY_CODE = {b.code: b for b in BUILDINGS}
_BY_ROOM = {r.id: r for b in BUILDINGS for r in b.rooms}


def building(code: str) -> Building:
    try:
        return _BY_CODE[code]
    except KeyError:
        raise UnknownObject(f"unknown building {code!r}") from None


def room(room_id: str) -> Room:
    try:
        return _BY_ROOM[room_id]
    except KeyError:
        raise UnknownObject(f"unknown room {room_id!r}") from None


def all_rooms() -> list[Room]:
    return list(_BY_ROOM.values())


def _booking(rng: random.Random, r: Room, day: date, start: int, end: int) -> SeedBooking:
    return SeedBooking(
        user=rng.choice(_SEED_OWNERS),
        room_id=r.id,
        day=day,
        start=fmt_hhmm(start),
        end=fmt_hhmm(end),
        purpose=rng.choice(_PURPOSES),
        attendees=max(1, r.capacity // rng.choice((2, 3, 4))),
    )


def seed_bookings(seed: int | None, today: date) -> list[SeedBooking]:
    """Other users' bookings: busy daytimes, mostly free evenings (18:00–20:00)."""
    if not seed:
        return []
    rng = random.Random(seed)
    result: list[SeedBooking] = []
    for offset in range(BOOKING_HORIZON_DAYS + 1):
        day = today + timedelta(days=offset)
        for r in all_rooms():
            # Daytime classes: about half the rooms, one or two blocks between 08:00 and 18:00.
            if rng.random() < 0.45:
                first = 8 * 60 + 30 * rng.randrange(0, 8)
                first_end = first + 30 * rng.randrange(2, 5)
                result.append(_booking(rng, r, day, first, first_end))
                if rng.random() < 0.5:
                    second = first_end + 30 * rng.randrange(1, 6)
                    second_end = min(second + 30 * rng.randrange(2, 5), 18 * 60)
                    if second_end > second:
                        result.append(_booking(rng, r, day, second, second_end))
            # Evenings stay mostly free so that three adjacent rooms are usually available.
            if rng.random() < 0.08:
                start = 60 * rng.choice((18, 19, 20))
                result.append(_booking(rng, r, day, start, start + 30 * rng.randrange(2, 4)))
    return result
