"""A real Indico 3.2.9 for tests, and ways to see its truth without our client.

``running_indico_server()`` installs Indico's own venv when missing (once per machine),
starts PostgreSQL, redis-server and Indico on free 127.0.0.1 ports, seeds them
(``scripts/indico/seed.json``) and stops everything on exit; every child dies with the
test process (PDEATHSIG). Tests check what really got booked with :meth:`bookings`,
which reads Indico's database with psql, and make someone else's bookings with
:meth:`add_booking`, which goes through Indico's own Python API (as does
:meth:`cancel_all`, a clean slate between tests) in one long-lived Indico process.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from scripts.indico.stack import REPO_ROOT, IndicoStack, MissingPrerequisite, running_indico
from scripts.indico.tools import IndicoTools

__all__ = [
    "DbBooking",
    "DbEvent",
    "DbRegform",
    "DbRoom",
    "IndicoAccount",
    "IndicoServer",
    "running_indico_server",
]

_SEED = REPO_ROOT / "scripts" / "indico" / "seed.json"
_STATES = {1: "pending", 2: "accepted", 3: "cancelled", 4: "rejected"}


@dataclass(frozen=True)
class IndicoAccount:
    username: str
    password: str
    id: int
    full_name: str
    email: str


@dataclass(frozen=True)
class DbRoom:
    id: int
    name: str
    building: str
    floor: str
    number: str
    capacity: int
    is_reservable: bool
    needs_confirmation: bool
    max_advance_days: int | None


@dataclass(frozen=True)
class DbBooking:
    """A row of ``roombooking.reservations`` (state: pending/accepted/cancelled/rejected)."""

    id: int
    room_id: int
    start: datetime
    end: datetime
    reason: str
    state: str
    booked_for_id: int | None
    created_by_id: int | None


@dataclass(frozen=True)
class DbEvent:
    """A row of ``events.events`` (times in UTC, naive) with its linked room bookings."""

    id: int
    title: str
    category_id: int | None
    description: str
    start: datetime
    end: datetime
    is_deleted: bool
    booking_ids: tuple[int, ...]  # reservations linked to the event (any state)


@dataclass(frozen=True)
class DbRegform:
    """A row of ``event_registration.forms`` with its count of live registrations."""

    id: int
    event_id: int
    limit: int | None
    start: datetime | None
    end: datetime | None
    registrations: int


class IndicoServer:
    """The handle a test gets: where Indico is, who may log in, and what its database says."""

    def __init__(
        self,
        stack: IndicoStack,
        accounts: dict[str, IndicoAccount],
        tools: IndicoTools,
        seeded: frozenset[int],
        seeded_on: date,
    ) -> None:
        self.stack = stack
        self._tools = tools
        self.seeded = seeded  # the bookings the seed made (someone else's, on fixed days)
        # The seed's days count from here: a session may run on past midnight in Indico's zone.
        self.seeded_on = seeded_on
        self.base_url = stack.base_url
        self.accounts = accounts

    @property
    def club(self) -> IndicoAccount:
        return self.accounts["club"]

    @property
    def other(self) -> IndicoAccount:
        return self.accounts["other"]

    @property
    def admin(self) -> IndicoAccount:
        return self.accounts["admin"]

    def _rows(self, sql: str) -> list[dict[str, Any]]:
        out = self.stack.psql(f"SELECT coalesce(json_agg(t), '[]') FROM ({sql}) t").strip()
        rows: list[dict[str, Any]] = json.loads(out)
        return rows

    def today(self) -> date:
        """Today in Indico's time zone (bookings are naive datetimes in it)."""
        return datetime.now(ZoneInfo(self.stack.timezone)).date()

    def rooms(self) -> list[DbRoom]:
        rows = self._rows(
            "SELECT r.id, l.room_name_format AS fmt, r.building, r.floor, r.number, r.capacity,"
            " r.is_reservable, r.reservations_need_confirmation AS needs_confirmation,"
            " r.max_advance_days FROM roombooking.rooms r"
            " JOIN roombooking.locations l ON l.id = r.location_id"
            " WHERE NOT r.is_deleted ORDER BY r.id"
        )
        return [
            DbRoom(
                id=r["id"],
                name=r["fmt"]
                .replace("%1$s", r["building"])
                .replace("%2$s", r["floor"])
                .replace("%3$s", r["number"]),
                building=r["building"],
                floor=r["floor"],
                number=r["number"],
                capacity=r["capacity"],
                is_reservable=r["is_reservable"],
                needs_confirmation=r["needs_confirmation"],
                max_advance_days=r["max_advance_days"],
            )
            for r in rows
        ]

    def room(self, name: str) -> DbRoom:
        return next(r for r in self.rooms() if r.name == name)

    def bookings(self, room_id: int | None = None) -> list[DbBooking]:
        """Every reservation in Indico's database (optionally one room's), oldest id first."""
        where = f"WHERE room_id = {int(room_id)}" if room_id is not None else ""
        rows = self._rows(
            "SELECT id, room_id, start_dt, end_dt, booking_reason, state, booked_for_id,"
            f" created_by_id FROM roombooking.reservations {where} ORDER BY id"
        )
        return [
            DbBooking(
                id=r["id"],
                room_id=r["room_id"],
                start=datetime.fromisoformat(r["start_dt"]),
                end=datetime.fromisoformat(r["end_dt"]),
                reason=r["booking_reason"],
                state=_STATES[r["state"]],
                booked_for_id=r["booked_for_id"],
                created_by_id=r["created_by_id"],
            )
            for r in rows
        ]

    def booking(self, booking_id: int) -> DbBooking | None:
        return next((b for b in self.bookings() if b.id == booking_id), None)

    def category_id(self, title: str) -> int:
        rows = self._rows(
            "SELECT id FROM categories.categories WHERE NOT is_deleted"
            f" AND title = '{title.replace(chr(39), chr(39) * 2)}'"
        )
        return int(rows[0]["id"])

    def events(self) -> list[DbEvent]:
        """Every event in Indico's database (deleted ones too), oldest id first."""
        rows = self._rows(
            "SELECT e.id, e.title, e.category_id, e.description, e.start_dt, e.end_dt,"
            " e.is_deleted, coalesce((SELECT json_agg(r.id ORDER BY r.id)"
            " FROM roombooking.reservations r JOIN roombooking.reservation_links l"
            " ON l.id = r.link_id WHERE l.linked_event_id = e.id), '[]') AS bookings"
            " FROM events.events e ORDER BY e.id"
        )
        return [
            DbEvent(
                id=r["id"],
                title=r["title"],
                category_id=r["category_id"],
                description=r["description"],
                start=datetime.fromisoformat(r["start_dt"]),
                end=datetime.fromisoformat(r["end_dt"]),
                is_deleted=r["is_deleted"],
                booking_ids=tuple(r["bookings"]),
            )
            for r in rows
        ]

    def event(self, event_id: int) -> DbEvent | None:
        return next((e for e in self.events() if e.id == event_id), None)

    def regforms(self, event_id: int) -> list[DbRegform]:
        """An event's registration forms (not deleted) and their live registrations."""
        rows = self._rows(
            "SELECT f.id, f.event_id, f.registration_limit, f.start_dt, f.end_dt,"
            " (SELECT count(*) FROM event_registration.registrations g"
            "  WHERE g.registration_form_id = f.id AND NOT g.is_deleted"
            "  AND g.state IN (1, 2, 5)) AS registrations"  # complete, pending, unpaid
            f" FROM event_registration.forms f WHERE f.event_id = {int(event_id)}"
            " AND NOT f.is_deleted ORDER BY f.id"
        )
        return [
            DbRegform(
                id=r["id"],
                event_id=r["event_id"],
                limit=r["registration_limit"],
                start=datetime.fromisoformat(r["start_dt"]) if r["start_dt"] else None,
                end=datetime.fromisoformat(r["end_dt"]) if r["end_dt"] else None,
                registrations=r["registrations"],
            )
            for r in rows
        ]

    def register(self, regform_id: int, user: str = "other") -> int:
        """Register ``user`` in a registration form through Indico's Python API."""
        spec = {"regform_id": regform_id, "user": user}
        return int(self._tools.call("register", spec)["id"])

    def add_booking(
        self,
        room_id: int,
        start: datetime,
        end: datetime,
        reason: str = "Someone else's booking",
        user: str = "other",
    ) -> int:
        """Book as ``user`` through Indico's Python API (its rules and conflicts apply)."""
        spec = {
            "room_id": room_id,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "reason": reason,
            "user": user,
        }
        return int(self._tools.call("book", spec)["id"])

    def cancel_all(self, user: str = "club", keep: Iterable[int] = ()) -> list[int]:
        """Cancel every live booking made for ``user`` but ``keep`` through Indico's Python API."""
        out = self._tools.call("cancel", {"user": user, "keep": sorted(keep)})
        return [int(i) for i in out["cancelled"]]

    def as_seeded(self) -> None:
        """Cancel every booking but the seeded ones: the server is shared by the session."""
        for user in self.accounts:
            self.cancel_all(user, keep=self.seeded)

    @contextmanager
    def seeded_only(self) -> Iterator[IndicoServer]:
        """The server with the seeded bookings alone, at the start and at the end: what
        others booked is not in the way, nor what is booked inside in theirs."""
        self.as_seeded()
        yield self
        self.as_seeded()


def _accounts(report: dict[str, Any], seed: dict[str, Any] | None) -> dict[str, IndicoAccount]:
    spec = json.loads(_SEED.read_text()) | (seed or {})
    return {
        name: IndicoAccount(
            username=name,
            password=spec["users"][name]["password"],
            id=info["id"],
            full_name=info["full_name"],
            email=info["email"],
        )
        for name, info in report["users"].items()
    }


@contextmanager
def running_indico_server(seed: dict[str, Any] | None = None) -> Iterator[IndicoServer]:
    """Start (installing when needed), seed, yield, stop. A missing prerequisite fails.

    ``seed`` replaces top-level keys of ``scripts/indico/seed.json`` (users, rooms, ...).
    """
    # Not pytest's tmp dir: it is private to root, and PostgreSQL runs as ``postgres``.
    workdir = Path(tempfile.mkdtemp(prefix="clubman-indico-"))
    try:
        with running_indico(workdir, seed=seed) as (stack, report):
            tools = IndicoTools(stack)
            try:
                made = report["bookings"]
                assert isinstance(made, list)
                seeded = frozenset(int(b["id"]) for b in made)
                seeded_on = report["seeded_on"]
                assert isinstance(seeded_on, str)
                accounts = _accounts(report, seed)
                yield IndicoServer(stack, accounts, tools, seeded, date.fromisoformat(seeded_on))
            finally:
                tools.close()
    except MissingPrerequisite as exc:
        raise RuntimeError(f"Indico cannot run here: {exc}") from exc
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
