"""The day grid: times down the rows, rooms across the columns, a booking one rowspan cell.

``build_grid`` gives, per 30-minute row, only the cells that row actually holds: a
booking's cell sits in its first row with ``rowspan`` = its length in rows, and the rows
below have no cell for that room (the HTML table model).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from portal.legacy.data import Room
from portal.legacy.store import Booking
from portal.legacy.timefmt import STEP_SEC, fmt_dmy, fmt_hhmm, fmt_span, start_choices

__all__ = ["Cell", "Row", "build_grid", "room_meta", "seats"]


@dataclass(frozen=True, slots=True)
class Cell:
    room: Room
    start: int  # seconds since midnight
    kind: str  # "free", "busy" or "mine"
    rowspan: int = 1
    end: int = 0

    @property
    def text(self) -> str:
        return {"free": "+", "busy": "Занято", "mine": "Ваша бронь"}[self.kind]

    @property
    def title(self) -> str:
        if self.kind == "free":
            return f"Забронировать {self.room.number} в {fmt_hhmm(self.start)}"
        return f"{self.room.number}: {fmt_span(self.start, self.end)}"

    def href(self, day: date) -> str:
        return f"/reserve?room={self.room.id}&t={self.start}&day={fmt_dmy(day)}"


@dataclass(frozen=True, slots=True)
class Row:
    start: int
    cells: tuple[Cell, ...]

    @property
    def label(self) -> str:
        return fmt_hhmm(self.start)


def seats(n: int) -> str:
    """«1 место», «24 места», «30 мест»."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} место"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} места"
    return f"{n} мест"


def room_meta(room: Room) -> str:
    """The small line under a room number: «эт. 3, 24 места»."""
    return f"эт. {room.floor}, {seats(room.capacity)}"


def build_grid(rooms: tuple[Room, ...], bookings: list[Booking], user: str | None) -> list[Row]:
    """Rows 08:00 … 21:30 for these rooms; ``bookings`` are the day's active ones."""
    starts = start_choices()
    first = {(b.room.id, b.start): b for b in bookings}
    covered: set[tuple[int, int]] = set()  # (room id, row start) under a rowspan from above
    for b in bookings:
        covered.update((b.room.id, t) for t in range(b.start + STEP_SEC, b.end, STEP_SEC))
    rows: list[Row] = []
    for t in starts:
        cells: list[Cell] = []
        for room in rooms:
            if (room.id, t) in covered:
                continue
            booking = first.get((room.id, t))
            if booking is None:
                cells.append(Cell(room, t, "free"))
                continue
            kind = "mine" if booking.user == user else "busy"
            span = -(-(booking.end - booking.start) // STEP_SEC)
            cells.append(Cell(room, t, kind, rowspan=span, end=booking.end))
        rows.append(Row(t, tuple(cells)))
    return rows
