"""Reference data, seeding and the SQLite store's race-safe booking transaction."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from pathlib import Path

import pytest

from portal.data import BUILDINGS, USERS, all_rooms, room, seed_bookings
from portal.db import BookingStore, NewBooking
from portal.errors import BookingRejected, UnknownObject

TODAY = date(2026, 11, 23)


def test_buildings_rooms_and_ids_are_the_documented_ones() -> None:
    names = {b.code: (b.name, len(b.rooms)) for b in BUILDINGS}
    assert names == {
        "main": ("Главный корпус", 30),
        "chaikovsky": ("Корпус на Чайковского", 16),
        "lab": ("Лабораторный корпус", 6),
    }
    r = room("main-405")
    assert (r.building, r.number, r.floor) == ("main", "405", 4)
    assert room("chaikovsky-108").floor == 1 and room("lab-506").floor == 5
    capacities = {r.capacity for r in all_rooms()}
    assert min(capacities) == 20 and max(capacities) == 120 and len(capacities) > 5
    with pytest.raises(UnknownObject):
        room("main-999")
    assert USERS["club"].password == "club-demo" and USERS["chess"].password == "chess-demo"


def test_seeding_is_deterministic_moderate_and_optional() -> None:
    first, again = seed_bookings(1, TODAY), seed_bookings(1, TODAY)
    assert first == again and first != seed_bookings(2, TODAY)
    assert seed_bookings(None, TODAY) == [] and seed_bookings(0, TODAY) == []
    assert {b.day for b in first} == {TODAY + timedelta(days=n) for n in range(15)}
    assert not {b.user for b in first} & {"club", "chess"}
    busy_rooms = {(b.room_id, b.day) for b in first}
    assert len(busy_rooms) < 0.75 * len(all_rooms()) * 15  # some rooms stay fully free
    # Three adjacent main-building rooms are free 18:00–20:00 on every one of the 14 days.
    for n in range(15):
        day = TODAY + timedelta(days=n)
        evening = {
            b.room_id for b in first if b.day == day and b.start < "20:00" and b.end > "18:00"
        }
        floors = [[r for r in b.rooms if r.floor == f] for b in BUILDINGS[:1] for f in (2, 3, 4)]
        runs = [
            rooms[i : i + 3]
            for rooms in floors
            for i in range(len(rooms) - 2)
            if not {r.id for r in rooms[i : i + 3]} & evening
        ]
        assert runs, f"no three adjacent free rooms on {day}"


def _new(user: str, start: str = "18:00", end: str = "20:00") -> NewBooking:
    return NewBooking(user, "main-405", TODAY, start, end, "Клуб", 10)


async def test_store_rejects_overlaps_and_cancels() -> None:
    store = BookingStore()
    made = await store.create(_new("club"))
    assert made.id == 1 and made.room_number == "405" and made.status == "active"
    with pytest.raises(BookingRejected) as caught:
        await store.create(_new("chess", "19:30", "21:00"))
    assert caught.value.code == "slot_taken"
    await store.create(_new("chess", "20:00", "21:00"))  # touching is not overlapping
    assert await store.cancel(made.id, user="chess") is None  # not chess's booking
    assert (await store.cancel(made.id, user="club")) is not None
    await store.create(_new("chess", "18:00", "19:00"))  # the cancelled slot is free again
    assert [b.user for b in await store.active_for_user("chess")] == ["chess", "chess"]
    store.close()


def test_two_stores_on_one_file_race_and_exactly_one_wins(tmp_path: Path) -> None:
    """Separate connections (no shared lock): only BEGIN IMMEDIATE keeps this safe."""
    path = str(tmp_path / "portal.sqlite")
    stores = [BookingStore(path) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def attempt(store: BookingStore, n: int) -> None:
        barrier.wait()
        try:
            store.create_sync(_new(f"user{n}"))
            outcomes.append("ok")
        except BookingRejected as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=attempt, args=(s, n)) for n, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["slot_taken"] * 5
    for s in stores:
        s.close()


async def test_a_file_database_keeps_its_bookings_across_restarts(tmp_path: Path) -> None:
    path = str(tmp_path / "portal.sqlite")
    first = BookingStore(path)
    first.seed_if_empty_sync(seed_bookings(1, TODAY))
    made = await first.create(_new("club", "20:00", "21:30"))
    seeded = await first.all()
    first.close()
    again = BookingStore(path)
    again.seed_if_empty_sync(seed_bookings(2, TODAY))  # not reseeded: it has bookings
    assert await again.all() == seeded and await again.get(made.id) == made
    again.close()
