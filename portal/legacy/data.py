"""Reference data: buildings and rooms with numeric ids, the two accounts, seeded bookings.

Building ids are 1, 2, 3; room ids are numbers unrelated to room numbers (room 301 of
the main building is id 22). Seeding: ``seed=None`` or ``0`` means no bookings; any other
integer gives the same bookings of ``chess`` for the same site "today": on every day of
the horizon (today … today+14) a few daytime blocks per building, evenings left free.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from portal.data import BOOKING_HORIZON_DAYS, USERS, User

__all__ = [
    "ACCOUNTS",
    "BUILDINGS",
    "Building",
    "Room",
    "SeedBooking",
    "find_building",
    "find_room",
    "seed_bookings",
]

_CAPACITIES = (24, 30, 16, 42, 60, 21, 36, 120, 12, 48)


@dataclass(frozen=True, slots=True)
class Room:
    id: int
    building_id: int
    number: str
    floor: int
    capacity: int


@dataclass(frozen=True, slots=True)
class Building:
    id: int
    name: str
    rooms: tuple[Room, ...]


@dataclass(frozen=True, slots=True)
class SeedBooking:
    user: str
    room_id: int
    day: date
    start: int  # seconds since midnight
    end: int
    purpose: str
    people: int


def _building(building_id: int, name: str, first_id: int, floors: dict[int, range]) -> Building:
    rooms: list[Room] = []
    for floor, numbers in floors.items():
        for number in numbers:
            capacity = _CAPACITIES[(number * 7 + building_id * 3) % len(_CAPACITIES)]
            rooms.append(Room(first_id + len(rooms), building_id, str(number), floor, capacity))
    return Building(building_id, name, tuple(rooms))


BUILDINGS: tuple[Building, ...] = (
    _building(
        1, "Главный корпус", 17, {2: range(201, 206), 3: range(301, 307), 4: range(401, 404)}
    ),
    _building(2, "Корпус на Чайковского", 40, {1: range(101, 105), 2: range(201, 205)}),
    _building(3, "Лабораторный корпус", 63, {5: range(501, 505)}),
)

ACCOUNTS: dict[str, User] = {name: USERS[name] for name in ("club", "chess")}

_BY_ID = {b.id: b for b in BUILDINGS}
_ROOMS = {r.id: r for b in BUILDINGS for r in b.rooms}
_PURPOSES = ("Шахматный турнир", "Тренировка по шахматам", "Блиц-турнир", "Разбор партий")


def find_building(building_id: int) -> Building | None:
    return _BY_ID.get(building_id)


def find_room(room_id: int) -> Room | None:
    return _ROOMS.get(room_id)


def seed_bookings(seed: int | None, today: date) -> list[SeedBooking]:
    """``chess``'s daytime blocks: per building and day one to three rooms, 1–2 hours each."""
    if not seed:
        return []
    rng = random.Random(seed)
    result: list[SeedBooking] = []
    for offset in range(BOOKING_HORIZON_DAYS + 1):
        day = today + timedelta(days=offset)
        for b in BUILDINGS:
            for r in rng.sample(b.rooms, rng.randint(1, 3)):
                start = 8 * 3600 + 1800 * rng.randrange(0, 16)  # 08:00 … 15:30
                end = start + 1800 * rng.randrange(2, 5)  # ends by 17:30
                purpose = rng.choice(_PURPOSES)
                people = max(2, r.capacity // rng.choice((2, 3)))
                result.append(SeedBooking("chess", r.id, day, start, end, purpose, people))
    return result
