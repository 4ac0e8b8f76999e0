"""SQLite store for bookings.

Every write runs in a worker thread under one lock and inside ``BEGIN IMMEDIATE``,
so the overlap check and the insert are one transaction: of two clients booking
the same slot at once exactly one wins (also across processes sharing a file).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from portal.data import SeedBooking, room
from portal.errors import BookingRejected

__all__ = ["Booking", "BookingStore", "NewBooking"]

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS bookings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL,
    building TEXT NOT NULL,
    room_id TEXT NOT NULL,
    day TEXT NOT NULL,
    start TEXT NOT NULL,
    "end" TEXT NOT NULL,
    purpose TEXT NOT NULL,
    attendees INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'
);
CREATE INDEX IF NOT EXISTS bookings_slot ON bookings (room_id, day, status);
"""
_COLUMNS = 'id, user, building, room_id, day, start, "end", purpose, attendees, status'


@dataclass(frozen=True, slots=True)
class NewBooking:
    user: str
    room_id: str
    day: date
    start: str  # HH:MM, zero-padded so that string order is time order
    end: str
    purpose: str
    attendees: int


@dataclass(frozen=True, slots=True)
class Booking:
    id: int
    user: str
    building: str
    room_id: str
    day: date
    start: str
    end: str
    purpose: str
    attendees: int
    status: str

    @property
    def room_number(self) -> str:
        return room(self.room_id).number

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "user": self.user,
            "building": self.building,
            "room": self.room_id,
            "room_number": self.room_number,
            "date": self.day.isoformat(),
            "start": self.start,
            "end": self.end,
            "purpose": self.purpose,
            "attendees": self.attendees,
            "status": self.status,
        }


def _row(row: sqlite3.Row) -> Booking:
    return Booking(
        id=row["id"],
        user=row["user"],
        building=row["building"],
        room_id=row["room_id"],
        day=date.fromisoformat(row["day"]),
        start=row["start"],
        end=row["end"],
        purpose=row["purpose"],
        attendees=row["attendees"],
        status=row["status"],
    )


class BookingStore:
    """Bookings in SQLite (a file path or ``:memory:``)."""

    def __init__(self, path: str = ":memory:") -> None:
        # isolation_level=None: we open transactions ourselves with BEGIN IMMEDIATE.
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA busy_timeout = 5000")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    async def _run(self, fn: Callable[[], T]) -> T:
        def locked() -> T:
            with self._lock:
                return fn()

        return await asyncio.to_thread(locked)

    def _transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(self._conn)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        return result

    # --- writes -------------------------------------------------------------------------

    def create_sync(self, new: NewBooking) -> Booking:
        def tx(conn: sqlite3.Connection) -> Booking:
            clash = conn.execute(
                "SELECT id FROM bookings WHERE room_id = ? AND day = ? AND status = ? "
                'AND start < ? AND "end" > ? LIMIT 1',
                (new.room_id, new.day.isoformat(), "active", new.end, new.start),
            ).fetchone()
            if clash is not None:
                raise BookingRejected("slot_taken", "Это время уже занято: выберите другое.")
            cur = conn.execute(
                f"INSERT INTO bookings ({_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING *",
                (
                    new.user,
                    room(new.room_id).building,
                    new.room_id,
                    new.day.isoformat(),
                    new.start,
                    new.end,
                    new.purpose,
                    new.attendees,
                    "active",
                ),
            )
            return _row(cur.fetchone())

        with self._lock:
            return self._transaction(tx)

    async def create(self, new: NewBooking) -> Booking:
        return await asyncio.to_thread(self.create_sync, new)

    async def cancel(self, booking_id: int, *, user: str) -> Booking | None:
        """Cancel the user's active booking; ``None`` if there is no such booking."""

        def tx(conn: sqlite3.Connection) -> Booking | None:
            row = conn.execute(
                f"UPDATE bookings SET status = 'cancelled' WHERE id = ? AND user = ? "
                f"AND status = 'active' RETURNING {_COLUMNS}",
                (booking_id, user),
            ).fetchone()
            return None if row is None else _row(row)

        return await self._run(lambda: self._transaction(tx))

    def _insert_seed(self, conn: sqlite3.Connection, seeds: Iterable[SeedBooking]) -> None:
        conn.executemany(
            f"INSERT INTO bookings ({_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, 'active')",
            [
                (
                    s.user,
                    room(s.room_id).building,
                    s.room_id,
                    s.day.isoformat(),
                    s.start,
                    s.end,
                    s.purpose,
                    s.attendees,
                )
                for s in seeds
            ],
        )

    def seed_if_empty_sync(self, seeds: list[SeedBooking]) -> None:
        """Seed a fresh database; a file that already holds bookings keeps them."""

        def tx(conn: sqlite3.Connection) -> None:
            if conn.execute("SELECT 1 FROM bookings LIMIT 1").fetchone() is None:
                self._insert_seed(conn, seeds)

        with self._lock:
            self._transaction(tx)

    async def reset(self, seeds: list[SeedBooking]) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM bookings")
            conn.execute("DELETE FROM sqlite_sequence WHERE name = 'bookings'")
            self._insert_seed(conn, seeds)

        await self._run(lambda: self._transaction(tx))

    # --- reads --------------------------------------------------------------------------

    def _select(self, where: str, args: tuple[object, ...]) -> list[Booking]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM bookings {where} ORDER BY day, start, room_id, id", args
        ).fetchall()
        return [_row(r) for r in rows]

    async def all(self) -> list[Booking]:
        return await self._run(lambda: self._select("", ()))

    async def get(self, booking_id: int) -> Booking | None:
        found = await self._run(lambda: self._select("WHERE id = ?", (booking_id,)))
        return found[0] if found else None

    async def active_for_user(self, user: str) -> list[Booking]:
        return await self._run(
            lambda: self._select("WHERE user = ? AND status = 'active'", (user,))
        )

    async def active_on(self, building: str, day: date) -> list[Booking]:
        return await self._run(
            lambda: self._select(
                "WHERE building = ? AND day = ? AND status = 'active'",
                (building, day.isoformat()),
            )
        )
