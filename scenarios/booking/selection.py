"""Choosing rooms from availability, and the times to try when they are taken.

Pure functions over the port's models: no browser here, so every rule is cheap to test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta

from pydantic import BaseModel

from core.site.models import Room, Rules
from scenarios.booking.models import Availability

__all__ = [
    "Want",
    "choose_rooms",
    "free_rooms",
    "nearest_times",
    "shift",
]


class Want(BaseModel):
    """What the user asked for, independent of where and when."""

    count: int = 1
    adjacent: bool = False
    capacity: int | None = None
    numbers: list[str] | None = None  # specific rooms («нужна 301»)


def free_rooms(
    grid: Availability, start: time, end: time, *, ours: Iterable[str] = ()
) -> list[Room]:
    """Rooms free for the whole range; rooms in ``ours`` (booked by us already) count as free."""
    mine = set(ours)
    return [
        slot.room for slot in grid.rooms if slot.room.number in mine or slot.is_free(start, end)
    ]


def _runs_of_adjacent(rooms: Sequence[Room], count: int, prefer: set[str]) -> list[list[Room]]:
    """Windows of ``count`` rooms side by side: same building and floor, consecutive
    positions (``Room.position``); rooms with no position are never adjacent."""
    by_floor: dict[tuple[str, int | None], list[tuple[int, Room]]] = {}
    for room in rooms:
        if room.position is not None:
            by_floor.setdefault((room.building, room.floor), []).append((room.position, room))
    runs: list[list[Room]] = []
    for floor_rooms in by_floor.values():
        ordered = sorted(floor_rooms, key=lambda pair: pair[0])
        for i in range(len(ordered) - count + 1):
            window = ordered[i : i + count]
            positions = [position for position, _ in window]
            if positions == list(range(positions[0], positions[0] + count)):
                runs.append([room for _, room in window])
    # Runs that reuse rooms we already booked come first, so a retry does not book more.
    return sorted(runs, key=lambda run: -len(prefer & {r.number for r in run}))


def choose_rooms(
    grid: Availability, want: Want, start: time, end: time, *, ours: Iterable[str] = ()
) -> list[Room] | None:
    """The rooms to book in ``grid`` for ``want``, or None if it cannot be met there."""
    mine = set(ours)
    candidates = [
        room
        for room in free_rooms(grid, start, end, ours=mine)
        if not room.needs_approval
        and (want.capacity is None or (room.capacity or 0) >= want.capacity)
    ]
    if want.numbers:
        by_number = {room.number: room for room in candidates}
        chosen = [by_number.get(number) for number in want.numbers]
        return [room for room in chosen if room] if all(chosen) else None
    if want.adjacent and want.count > 1:
        runs = _runs_of_adjacent(candidates, want.count, mine)
        return runs[0] if runs else None
    ranked = sorted(
        candidates, key=lambda r: (r.number not in mine, r.floor or 0, r.position or 0, r.number)
    )
    return ranked[: want.count] if len(ranked) >= want.count else None


def shift(
    day: date, start: time, end: time, minutes: int, rules: Rules
) -> tuple[time, time] | None:
    """The same duration moved by ``minutes``, if it stays within the site's opening hours."""
    begin = datetime.combine(day, start) + timedelta(minutes=minutes)
    finish = datetime.combine(day, end) + timedelta(minutes=minutes)
    if begin.date() != day or finish.date() != day:
        return None
    if begin.time() < rules.opens or finish.time() > rules.closes:
        return None
    return begin.time(), finish.time()


def nearest_times(
    day: date, start: time, end: time, rules: Rules, *, limit: int = 27
) -> list[tuple[time, time]]:
    """Other start times the same day on the site's time grid, nearest first."""
    found: list[tuple[time, time]] = []
    for k in range(1, limit + 1):
        for sign in (1, -1):
            moved = shift(day, start, end, sign * k * rules.step_minutes, rules)
            if moved is not None:
                found.append(moved)
    return found
