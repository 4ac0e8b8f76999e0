"""Choosing rooms from availability grids, and real alternatives when they are taken.

Pure functions over the portal's grids: no browser here, so every rule is cheap to test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta

from pydantic import BaseModel

from scenarios.portal.models import Grid, Room

__all__ = [
    "DAY_END",
    "DAY_START",
    "Want",
    "choose_rooms",
    "free_rooms",
    "nearest_times",
    "shift",
]

DAY_START = time(8, 0)
DAY_END = time(22, 0)
_STEP = timedelta(minutes=30)


class Want(BaseModel):
    """What the user asked for, independent of where and when."""

    count: int = 1
    adjacent: bool = False
    capacity: int | None = None
    numbers: list[str] | None = None  # specific rooms («нужна 301»)


def free_rooms(grid: Grid, start: time, end: time, *, ours: Iterable[str] = ()) -> list[Room]:
    """Rooms free for the whole range; rooms in ``ours`` (booked by us already) count as free."""
    mine = set(ours)
    return [
        slot.room for slot in grid.rooms if slot.room.number in mine or slot.is_free(start, end)
    ]


def _runs_of_adjacent(rooms: Sequence[Room], count: int, prefer: set[str]) -> list[list[Room]]:
    by_floor: dict[int, list[Room]] = {}
    for room in rooms:
        by_floor.setdefault(room.floor, []).append(room)
    runs: list[list[Room]] = []
    for floor_rooms in by_floor.values():
        ordered = sorted(floor_rooms, key=lambda r: int(r.number))
        for i in range(len(ordered) - count + 1):
            window = ordered[i : i + count]
            numbers = [int(r.number) for r in window]
            if numbers == list(range(numbers[0], numbers[0] + count)):
                runs.append(window)
    # Runs that reuse rooms we already booked come first, so a retry does not book more.
    return sorted(runs, key=lambda run: -len(prefer & {r.number for r in run}))


def choose_rooms(
    grid: Grid, want: Want, start: time, end: time, *, ours: Iterable[str] = ()
) -> list[Room] | None:
    """The rooms to book in ``grid`` for ``want``, or None if it cannot be met there."""
    mine = set(ours)
    candidates = [
        room
        for room in free_rooms(grid, start, end, ours=mine)
        if want.capacity is None or room.capacity >= want.capacity
    ]
    if want.numbers:
        by_number = {room.number: room for room in candidates}
        chosen = [by_number.get(number) for number in want.numbers]
        return [room for room in chosen if room] if all(chosen) else None
    if want.adjacent and want.count > 1:
        runs = _runs_of_adjacent(candidates, want.count, mine)
        return runs[0] if runs else None
    ranked = sorted(candidates, key=lambda r: (r.number not in mine, r.floor, int(r.number)))
    return ranked[: want.count] if len(ranked) >= want.count else None


def shift(day: date, start: time, end: time, minutes: int) -> tuple[time, time] | None:
    """The same duration moved by ``minutes``, if it stays within the portal's day."""
    begin = datetime.combine(day, start) + timedelta(minutes=minutes)
    finish = datetime.combine(day, end) + timedelta(minutes=minutes)
    if begin.date() != day or finish.date() != day:
        return None
    if begin.time() < DAY_START or finish.time() > DAY_END:
        return None
    return begin.time(), finish.time()


def nearest_times(day: date, start: time, end: time, *, limit: int = 27) -> list[tuple[time, time]]:
    """Other start times the same day on the 30-minute grid, nearest first."""
    found: list[tuple[time, time]] = []
    for k in range(1, limit + 1):
        for sign in (1, -1):
            moved = shift(day, start, end, sign * k * int(_STEP.total_seconds() // 60))
            if moved is not None:
                found.append(moved)
    return found
