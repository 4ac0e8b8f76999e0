"""A real MRBS 1.12.2 (Meeting Room Booking System) for tests, and its truth without a browser.

``running_mrbs()`` unpacks MRBS as its authors publish it (``../shared/sites/``, see its
README) into a temporary folder, starts a PostgreSQL cluster of its own, loads MRBS's
schema, writes ``config.inc.php`` (users in the database, no public access, Russian UI,
Moscow time, a 30-day booking window, 30-minute slots from 8:00 to 21:00, no mail), seeds
two buildings, two accounts and someone else's bookings, and serves it with PHP's built-in
server (several workers: MRBS's pages fetch the next days in the background). Everything
stops on exit; every child dies with the test process (PDEATHSIG; PHP's forked workers
through a watcher that takes their process group down).

How it is set up is an :class:`MrbsConfig`: the default (:data:`STOCK`) is the server above;
:data:`VARIANT` is the same MRBS set up as a site nobody tuned the learner for (English UI,
London time, 15-minute slots from 9:00 to 18:00, a 14-day window, «North Campus» with rooms
«Room N-113»…, and «South Campus» in MRBS's periods mode: «Period 1»… instead of times).

Tests read what really got booked with :meth:`MrbsServer.bookings`, straight from MRBS's
tables (``mrbs_entry`` and its rooms and areas), make someone else's bookings with
:meth:`MrbsServer.add_booking` and clean up with :meth:`MrbsServer.delete_bookings` or
:meth:`MrbsServer.seeded_only`. The accounts' passwords are made per run and live only here.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from scripts.indico.services import (
    MissingPrerequisite,
    cluster,
    free_port,
    postgres_bindir,
    run_logged,
    spawn,
    stop,
    wait_port,
)

__all__ = [
    "APT_FIX",
    "MRBS_VERSION",
    "MissingPrerequisite",
    "STOCK",
    "VARIANT",
    "MrbsAccount",
    "MrbsConfig",
    "MrbsEntry",
    "MrbsRoom",
    "MrbsServer",
    "running_mrbs",
    "tarball",
]

MRBS_VERSION = "1.12.2"
REPO_ROOT = Path(__file__).resolve().parents[2]
_TOOL = Path(__file__).with_name("mrbs_tool.php")
TIMEZONE = "Europe/Moscow"
BOOKING_WINDOW_DAYS = 30
_HOLD_KEY = 7_246_514  # the advisory lock of holding_bookings: any number no one else uses
APT_FIX = (
    "apt-get install -y php8.2-cli php8.2-pgsql php8.2-intl php8.2-mbstring php8.2-xml"
    " postgresql (or `make system-deps`)"
)
PHP_WORKERS = 4
_PHP_MODULES = ("pgsql", "intl", "mbstring")  # what MRBS's pages need of PHP's modules

# Two buildings whose rooms have adjacent numbers, with capacities and descriptions.
AREAS: dict[str, list[tuple[str, int, str]]] = {
    "Главный корпус": [
        ("101", 30, "Лекционная"),
        ("102", 24, "Семинарская"),
        ("103", 24, "Семинарская"),
        ("104", 16, "Компьютерный класс"),
        ("105", 60, "Поточная аудитория"),
    ],
    "Корпус Чайковского": [
        ("301", 20, "Семинарская"),
        ("302", 20, "Семинарская"),
        ("303", 40, "Лекционная"),
    ],
}
# The accounts: the club the bot books for, and another person whose bookings it must
# leave alone. Both are ordinary users (level 1): neither may edit the other's bookings.
USERS: dict[str, tuple[str, str, str]] = {  # key: (login, display name, e-mail)
    "club": ("club", "Клуб робототехники", "club@example.org"),
    "other": ("ivanov", "Иван Иванов", "ivanov@example.org"),
}
# Someone else's bookings: (days after the seed's day, room, start, end, name).
SEEDED: list[tuple[int, str, str, str, str]] = [
    (1, "102", "10:00", "12:00", "Семинар по матанализу"),
    (1, "104", "18:00", "19:30", "Консультация"),
    (2, "101", "14:00", "16:00", "Лекция по физике"),
    (2, "302", "09:00", "10:00", "Заседание кафедры"),
    (3, "103", "18:00", "20:00", "Английский клуб"),
]

Rooms = Mapping[str, tuple[tuple[str, int, str], ...]]  # area: (room, capacity, description)


@dataclass(frozen=True)
class MrbsConfig:
    """What a university would set in ``config.inc.php`` and seed; the default is the stock
    server every MRBS test has used (its words in Russian, Moscow time)."""

    language: str = "ru"  # MRBS's UI language, whatever the browser asks for
    company: str = "Тестовый университет"
    timezone: str = TIMEZONE
    resolution_minutes: int = 30
    opens: str = "08:00"  # the first slot's start
    closes: str = "21:00"  # the last slot's end
    horizon_days: int = BOOKING_WINDOW_DAYS
    areas: Rooms = field(
        default_factory=lambda: {area: tuple(rooms) for area, rooms in AREAS.items()}
    )
    users: Mapping[str, tuple[str, str, str]] = field(default_factory=lambda: dict(USERS))
    seeded: tuple[tuple[int, str, str, str, str], ...] = tuple(SEEDED)
    # Areas in MRBS's periods mode: their periods, (name, start, end), in order.
    periods: Mapping[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)


STOCK = MrbsConfig()
VARIANT = MrbsConfig(
    language="en",
    company="Test University",
    timezone="Europe/London",
    resolution_minutes=15,
    opens="09:00",
    closes="18:00",
    horizon_days=14,
    areas={
        "North Campus": (
            ("Room N-113", 24, "Seminar room"),
            ("Room N-114", 24, "Seminar room"),
            ("Room N-115", 30, "Lecture room"),
            ("Lab 2.04", 16, "Computer lab"),
        ),
        "South Campus": (
            ("Hall A", 120, "Lecture hall"),
            ("Room S-12", 20, "Seminar room"),
        ),
    },
    users={
        "club": ("club", "Robotics Club", "club@example.org"),
        "other": ("jsmith", "Jane Smith", "jsmith@example.org"),
    },
    seeded=(
        (1, "Room N-114", "10:00", "11:30", "Calculus seminar"),
        (1, "Lab 2.04", "15:15", "16:45", "Office hours"),
        (2, "Room N-113", "09:00", "10:00", "Faculty meeting"),
    ),
    periods={
        "South Campus": (
            ("Period 1", "09:00", "10:30"),
            ("Period 2", "10:45", "12:15"),
            ("Period 3", "13:00", "14:30"),
            ("Period 4", "14:45", "16:15"),
        ),
    },
)


@dataclass(frozen=True)
class MrbsAccount:
    key: str  # "club" or "other"
    username: str
    password: str
    display_name: str
    email: str


@dataclass(frozen=True)
class MrbsRoom:
    id: int
    name: str
    area_id: int
    area: str
    capacity: int
    description: str


@dataclass(frozen=True)
class MrbsEntry:
    """A row of ``mrbs_entry`` with its room's and area's names; times in MRBS's zone."""

    id: int
    room_id: int
    room: str
    area: str
    start: datetime
    end: datetime
    name: str
    description: str
    type: str  # "I" internal, "E" external (MRBS's stock booking types)
    create_by: str
    modified_by: str
    repeat_id: int | None


def tarball() -> Path:
    """Where MRBS's tarball is: ``MRBS_TARBALL``, else ``../shared/sites/`` beside the repo."""
    given = os.environ.get("MRBS_TARBALL")
    if given:
        return Path(given)
    return REPO_ROOT.parent / "shared" / "sites" / f"mrbs-{MRBS_VERSION}.tar.gz"


def _check_prerequisites() -> tuple[str, Path, Path]:
    """php with MRBS's modules, PostgreSQL's binaries, the tarball; else say how to fix."""
    php = shutil.which("php")
    if php is None:
        raise MissingPrerequisite(f"php is missing: {APT_FIX}")
    modules = subprocess.run([php, "-m"], capture_output=True, text=True, check=False).stdout
    have = {line.strip().lower() for line in modules.splitlines()}
    lacking = [m for m in _PHP_MODULES if m not in have]
    if lacking:
        raise MissingPrerequisite(f"php lacks {', '.join(lacking)}: {APT_FIX}")
    archive = tarball()
    if not archive.is_file():
        raise MissingPrerequisite(
            f"MRBS's tarball is missing: {archive} (the folder ../shared/sites/ beside the"
            " repository holds it; or set MRBS_TARBALL to its path)"
        )
    return php, archive, postgres_bindir()


def _php_literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _minutes(hhmm: str) -> int:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return hour * 60 + minute


def _config(pg_port: int, config: MrbsConfig) -> str:
    """``web/config.inc.php``: the settings a university's MRBS would change, and no more."""
    first = _minutes(config.opens)
    last = _minutes(config.closes) - config.resolution_minutes  # the last slot's start
    return f"""<?php
declare(strict_types=1);
namespace MRBS;

require_once 'lib/autoload.inc';

$timezone = {_php_literal(config.timezone)};

$dbsys = "pgsql";
$db_host = "127.0.0.1";
$db_port = {pg_port};
$db_database = "mrbs";
$db_login = "mrbs";
$db_password = '';
$db_tbl_prefix = "mrbs_";
$db_persist = false;

$mrbs_company = {_php_literal(config.company)};

// Users live in MRBS's own table (mrbs_users); nothing is shown before logging in.
$auth['type'] = 'db';
$auth['session'] = 'php';
$auth['deny_public_access'] = true;
unset($auth['admin']);
unset($auth['user']);

// The UI in one language whatever the browser asks for.
$default_language_tokens = {_php_literal(config.language)};
$disable_automatic_language_changing = true;

// No mail leaves the machine.
$mail_settings['disabled'] = true;
$mail_settings['admin_on_bookings'] = false;
$mail_settings['area_admin_on_bookings'] = false;
$mail_settings['room_admin_on_bookings'] = false;
$mail_settings['booker'] = false;
$mail_settings['book_admin_on_approval'] = false;

// Slots of {config.resolution_minutes} minutes from {config.opens} to {config.closes}
// (the evening's value is the last slot's start).
$resolution = {config.resolution_minutes} * 60;
$default_duration = 60 * 60;
$morningstarts = {first // 60};
$morningstarts_minutes = {first % 60};
$eveningends = {last // 60};
$eveningends_minutes = {last % 60};

// Nothing in the past, nothing more than {config.horizon_days} days ahead.
$min_create_ahead_enabled = true;
$min_create_ahead_secs = 0;
$max_create_ahead_enabled = true;
$max_create_ahead_secs = {config.horizon_days} * 24 * 60 * 60;
"""


def _sql_literal(value: str | None) -> str:
    return "NULL" if value is None else "'" + value.replace("'", "''") + "'"


def _epoch(day: date, hhmm: str, timezone: str = TIMEZONE) -> int:
    hour, minute = (int(part) for part in hhmm.split(":"))
    moment = datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(timezone))
    return int(moment.timestamp())


class _Tool:
    """``tests/sites/mrbs_tool.php``: MRBS's own functions write the seed and the bookings
    tests make for someone else (the rows look as MRBS's pages make them)."""

    def __init__(self, php: str, root: Path) -> None:
        self._script = root / "clubman-tool.php"  # beside the web root, never served
        shutil.copyfile(_TOOL, self._script)
        self._argv = [php, "-d", "display_errors=stderr", str(self._script), str(root / "web")]

    def __call__(self, command: str, spec: dict[str, Any]) -> dict[str, Any]:
        out = subprocess.run(
            [*self._argv, command],
            input=json.dumps(spec),
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0 or not out.stdout.startswith("{"):
            raise RuntimeError(f"mrbs_tool.php {command} failed: {out.stderr[-3000:]}")
        answer: dict[str, Any] = json.loads(out.stdout)
        return answer


def _entry(
    room: MrbsRoom | tuple[str, str], start: int, end: int, name: str, user: str, description: str
) -> dict[str, Any]:
    area, room_name = (room.area, room.name) if isinstance(room, MrbsRoom) else room
    return {
        "area": area,
        "room": room_name,
        "start": start,
        "end": end,
        "name": name,
        "user": user,
        "description": description,
        "type": "I",
    }


def _seed_spec(accounts: dict[str, MrbsAccount], today: date, config: MrbsConfig) -> dict[str, Any]:
    area_of = {room: area for area, rooms in config.areas.items() for room, _, _ in rooms}
    zone = config.timezone
    other = accounts["other"].username
    return {
        "areas": [
            {
                "name": area,
                "rooms": [
                    {"name": name, "capacity": capacity, "description": description}
                    for name, capacity, description in rooms
                ],
            }
            for area, rooms in config.areas.items()
        ],
        "users": [
            {
                "level": 1,
                "name": a.username,
                "display_name": a.display_name,
                "password": a.password,
                "email": a.email,
            }
            for a in accounts.values()
        ],
        "entries": [
            _entry(
                (area_of[room], room),
                _epoch(today + timedelta(days=days), start, zone),
                _epoch(today + timedelta(days=days), end, zone),
                name,
                other,
                "",
            )
            for days, room, start, end, name in config.seeded
        ],
    }


def _periods_sql(config: MrbsConfig) -> str:
    """Its areas in periods mode, as the admin's area page sets them: MRBS keeps an area's
    periods as JSON, each name with its start and end (``Periods::fromDbValue``)."""
    statements = []
    for area, periods in config.periods.items():
        value = json.dumps({name: [start, end] for name, start, end in periods})
        statements.append(
            f"UPDATE mrbs_area SET enable_periods = 1, periods = {_sql_literal(value)}"
            f" WHERE area_name = {_sql_literal(area)}"
        )
    return "; ".join(statements)


class MrbsServer:
    """The handle a test gets: where MRBS is, who may log in, and what its tables say."""

    def __init__(
        self,
        base_url: str,
        root: Path,
        psql: list[str],
        tool: _Tool,
        accounts: dict[str, MrbsAccount],
        seeded: frozenset[int],
        seeded_on: date,
        timings: dict[str, float],
        config: MrbsConfig = STOCK,
    ) -> None:
        self.base_url = base_url
        self.root = root  # the unpacked mrbs-1.12.2 folder (web root: root / "web")
        self._psql = psql
        self._tool = tool
        self.accounts = accounts
        self.seeded = seeded  # the seed's entries (someone else's, on the next days)
        self.seeded_on = seeded_on  # the seed's days count from here (MRBS's zone)
        self.timings = timings  # seconds each part of the start took
        self.config = config
        self.timezone = config.timezone
        self.booking_window_days = config.horizon_days

    @property
    def club(self) -> MrbsAccount:
        return self.accounts["club"]

    @property
    def other(self) -> MrbsAccount:
        return self.accounts["other"]

    def sql(self, sql: str) -> str:
        """Run SQL on MRBS's database; return psql's unaligned output."""
        out = subprocess.run(
            [*self._psql, "-A", "-t", "-c", sql], capture_output=True, text=True, check=False
        )
        if out.returncode != 0:
            raise RuntimeError(f"psql failed: {out.stderr.strip()}")
        return out.stdout

    def _rows(self, sql: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = json.loads(
            self.sql(f"SELECT coalesce(json_agg(t), '[]') FROM ({sql}) t").strip()
        )
        return rows

    def today(self) -> date:
        """Today in MRBS's time zone."""
        return datetime.now(ZoneInfo(self.timezone)).date()

    def at(self, day: date, hhmm: str) -> datetime:
        """A moment of ``day`` in MRBS's time zone."""
        return datetime.fromtimestamp(_epoch(day, hhmm, self.timezone), ZoneInfo(self.timezone))

    def rooms(self) -> list[MrbsRoom]:
        rows = self._rows(
            "SELECT r.id, r.room_name, r.area_id, a.area_name, r.capacity, r.description"
            " FROM mrbs_room r JOIN mrbs_area a ON a.id = r.area_id"
            " WHERE r.disabled = 0 ORDER BY a.sort_key, r.sort_key"
        )
        return [
            MrbsRoom(
                id=r["id"],
                name=r["room_name"],
                area_id=r["area_id"],
                area=r["area_name"],
                capacity=r["capacity"],
                description=r["description"] or "",
            )
            for r in rows
        ]

    def room(self, name: str) -> MrbsRoom:
        return next(r for r in self.rooms() if r.name == name)

    def bookings(self, user: str | None = None) -> list[MrbsEntry]:
        """Every entry in MRBS's table (or those ``user`` — a login — made), oldest first."""
        where = f"WHERE e.create_by = {_sql_literal(user)}" if user is not None else ""
        rows = self._rows(
            "SELECT e.id, e.room_id, r.room_name, a.area_name, e.start_time, e.end_time,"
            " e.name, e.description, e.type, e.create_by, e.modified_by, e.repeat_id"
            " FROM mrbs_entry e JOIN mrbs_room r ON r.id = e.room_id"
            f" JOIN mrbs_area a ON a.id = r.area_id {where} ORDER BY e.id"
        )
        zone = ZoneInfo(self.timezone)
        return [
            MrbsEntry(
                id=r["id"],
                room_id=r["room_id"],
                room=r["room_name"],
                area=r["area_name"],
                start=datetime.fromtimestamp(r["start_time"], zone),
                end=datetime.fromtimestamp(r["end_time"], zone),
                name=r["name"],
                description=r["description"] or "",
                type=r["type"],
                create_by=r["create_by"],
                modified_by=r["modified_by"],
                repeat_id=r["repeat_id"],
            )
            for r in rows
        ]

    def booking(self, entry_id: int) -> MrbsEntry | None:
        return next((b for b in self.bookings() if b.id == entry_id), None)

    def add_booking(
        self,
        room: str,
        start: datetime,
        end: datetime,
        name: str = "Чужая бронь",
        user: str = "other",
        description: str = "",
    ) -> int:
        """Book as ``user`` (a key of :attr:`accounts`) by MRBS's own function, as its form
        would store it; no rule is checked (conflicts, the window), as for an admin."""
        login = self.accounts[user].username
        entry = _entry(
            self.room(room), int(start.timestamp()), int(end.timestamp()), name, login, description
        )
        made = self._tool("book", {"entries": [entry]})["entries"]
        return int(made[0])

    def delete_bookings(self, user: str = "club", keep: Iterable[int] = ()) -> list[int]:
        """Delete every entry ``user`` (a key of :attr:`accounts`) made but ``keep``;
        return their ids. Their series (``mrbs_repeat``) go with them."""
        login = self.accounts[user].username
        kept = ",".join(str(int(i)) for i in keep) or "0"
        out = self.sql(
            "WITH gone AS (DELETE FROM mrbs_entry"
            f" WHERE create_by = {_sql_literal(login)} AND id NOT IN ({kept}) RETURNING id)"
            " SELECT id FROM gone ORDER BY id;"
            f" DELETE FROM mrbs_repeat WHERE create_by = {_sql_literal(login)}"
            " AND id NOT IN (SELECT repeat_id FROM mrbs_entry WHERE repeat_id IS NOT NULL)"
        )
        return [int(i) for i in out.split()]

    def as_seeded(self) -> None:
        """Every entry but the seeded ones deleted: the server is shared by the session."""
        kept = ",".join(str(i) for i in sorted(self.seeded)) or "0"
        self.sql(
            f"DELETE FROM mrbs_entry WHERE id NOT IN ({kept});"
            " DELETE FROM mrbs_repeat WHERE id NOT IN"
            " (SELECT repeat_id FROM mrbs_entry WHERE repeat_id IS NOT NULL)"
        )

    @contextmanager
    def seeded_only(self) -> Iterator[MrbsServer]:
        """The server with the seeded entries alone, at the start and at the end."""
        self.as_seeded()
        yield self
        self.as_seeded()

    @contextmanager
    def holding_bookings(self, *, user: str, day: date, after: int) -> Iterator[None]:
        """Hold each entry ``user`` (a key of :attr:`accounts`) makes starting on ``day``
        once ``after`` such entries exist, until the block ends: a trigger makes its
        ``INSERT`` wait for an advisory lock a psql session here holds, so MRBS's request
        stays unanswered (a crash test kills the bot at the point it chose, not at
        whatever point a poll happened to see); released, MRBS finishes it."""
        login = _sql_literal(self.accounts[user].username)
        zone = self.timezone
        first, last = _epoch(day, "00:00", zone), _epoch(day + timedelta(days=1), "00:00", zone)
        theirs = f"create_by = {login} AND start_time >= {first} AND start_time < {last}"
        holder = subprocess.Popen(
            [*self._psql, "-A", "-t"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert holder.stdin is not None and holder.stdout is not None
        try:
            holder.stdin.write(f"SELECT pg_advisory_lock({_HOLD_KEY});\n\\echo held\n")
            holder.stdin.flush()
            assert any(line.strip() == "held" for line in holder.stdout), "no advisory lock"
            self.sql(
                "CREATE FUNCTION clubman_hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                f" IF (SELECT count(*) FROM mrbs_entry WHERE {theirs}) >= {int(after)}"
                f" THEN PERFORM pg_advisory_lock({_HOLD_KEY});"
                f" PERFORM pg_advisory_unlock({_HOLD_KEY}); END IF; RETURN NEW; END $$;"
                " CREATE TRIGGER clubman_hold BEFORE INSERT ON mrbs_entry FOR EACH ROW"
                f" WHEN (NEW.{theirs.replace(' AND ', ' AND NEW.')})"
                " EXECUTE FUNCTION clubman_hold()"
            )
            yield
        finally:
            holder.stdin.close()  # the session ends: the lock goes, held requests go on
            try:
                holder.wait(timeout=30)
            except subprocess.TimeoutExpired:
                holder.kill()
                holder.wait()
            self.sql(
                "DROP TRIGGER IF EXISTS clubman_hold ON mrbs_entry;"
                " DROP FUNCTION IF EXISTS clubman_hold()"
            )

    @contextmanager
    def outage(self) -> Iterator[None]:
        """While open, MRBS's database takes no connection (MRBS answers every page with
        its error page), as a site whose database is down."""
        admin = [*self._psql[: self._psql.index("-U")], "-U", "postgres", "-d", "postgres"]

        def run(*sql: str) -> None:
            for statement in sql:
                subprocess.run([*admin, "-c", statement], check=True, capture_output=True)

        run(
            "ALTER DATABASE mrbs ALLOW_CONNECTIONS false",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = 'mrbs' AND pid <> pg_backend_pid()",
        )
        try:
            yield
        finally:
            run("ALTER DATABASE mrbs ALLOW_CONNECTIONS true")

    def end_sessions(self) -> int:
        """End every logged-in session on the site (MRBS keeps them in ``mrbs_sessions``),
        as a site does when its sessions time out; return how many there were."""
        out = self.sql(
            "WITH gone AS (DELETE FROM mrbs_sessions RETURNING 1) SELECT count(*) FROM gone"
        )
        return int(out.strip())


def _wait_login_page(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Until MRBS answers its address with its login form (or fail with its log)."""
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"php -S exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                body = resp.read().decode("utf-8", "replace")
            if 'name="password"' in body:
                return
            last = body[-2000:]
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}: {exc.read()[-2000:].decode('utf-8', 'replace')}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.05)
    raise RuntimeError(f"MRBS showed no login form at {url} within {timeout:.0f} s: {last}")


# PHP's server forks its workers, and a fork does not keep PDEATHSIG: a watcher that does
# keep it (``spawn``) runs PHP in its own process group and takes the group down with it.
_WATCHER = """
import os, signal, subprocess, sys
def down(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGTERM)
    os._exit(0)
signal.signal(signal.SIGTERM, down)
signal.signal(signal.SIGINT, down)
sys.exit(subprocess.call(sys.argv[1:]))
"""


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """PHP's server and its workers (one process group: ``spawn`` starts a session)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextmanager
def running_mrbs(
    workdir: Path | None = None, *, config: MrbsConfig = STOCK
) -> Iterator[MrbsServer]:
    """Unpack, start PostgreSQL and PHP, seed, yield; stop all and remove the folder on exit.
    ``config``: how the site is set up and seeded (the stock server by default).

    A missing prerequisite (php, its modules, PostgreSQL, the tarball) raises
    :class:`MissingPrerequisite` whose message carries the command that fixes it.
    """
    php, archive, _ = _check_prerequisites()  # PostgreSQL: its cluster finds it again
    own = workdir is None
    # Not pytest's tmp dir: it is private to root, and PostgreSQL runs as ``postgres``.
    folder = Path(tempfile.mkdtemp(prefix="clubman-mrbs-")) if workdir is None else workdir
    timings: dict[str, float] = {}
    clock = time.monotonic()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        timings[name] = round(now - clock, 2)
        clock = now

    try:
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)  # the postgres account must reach pgdata inside
        logs = folder / "logs"
        logs.mkdir(exist_ok=True)
        with ExitStack() as stack:
            # Unpacking and initdb run together (two cores, two jobs).
            unpack = spawn(["tar", "-xzf", str(archive), "-C", str(folder)], logs / "tar.log")
            stack.callback(stop, unpack)
            pg_port, psql_bin = stack.enter_context(cluster(folder, logs))
            lap("postgres")
            if unpack.wait() != 0:
                tail = (logs / "tar.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"unpacking {archive} failed:\n{tail}")
            root = folder / f"mrbs-{MRBS_VERSION}"
            lap("unpack")
            psql = [str(psql_bin), "-h", "127.0.0.1", "-p", str(pg_port), "-X", "-q"]
            psql += ["-v", "ON_ERROR_STOP=1"]
            setup = ["-c", "CREATE ROLE mrbs LOGIN", "-c", "CREATE DATABASE mrbs OWNER mrbs"]
            run_logged([*psql, "-U", "postgres", "-d", "postgres", *setup], logs / "db.log")
            mrbs_psql = [*psql, "-U", "mrbs", "-d", "mrbs"]
            run_logged([*mrbs_psql, "-f", str(root / "tables.pg.sql")], logs / "db.log")
            lap("schema")
            (root / "web" / "config.inc.php").write_text(_config(pg_port, config))
            port = free_port()
            base_url = f"http://127.0.0.1:{port}"
            env = {k: v for k, v in os.environ.items() if not k.startswith("PHP")}
            env["PHP_CLI_SERVER_WORKERS"] = str(PHP_WORKERS)
            php_log = logs / "php.log"
            argv = [php, "-d", "display_errors=0", "-d", "log_errors=1"]
            argv += ["-d", f"error_log={logs / 'php-errors.log'}"]
            argv += ["-S", f"127.0.0.1:{port}", "-t", str(root / "web")]
            proc = spawn([sys.executable, "-c", _WATCHER, *argv], php_log, env)
            stack.callback(_stop_group, proc)
            accounts = {
                key: MrbsAccount(key, login, secrets.token_urlsafe(12), display, email)
                for key, (login, display, email) in config.users.items()
            }
            tool = _Tool(php, root)  # seeds while PHP's server starts
            seeded_on = datetime.now(ZoneInfo(config.timezone)).date()
            made = tool("seed", _seed_spec(accounts, seeded_on, config))
            if config.periods:
                run_logged([*mrbs_psql, "-c", _periods_sql(config)], logs / "db.log")
            lap("seed")
            wait_port(port, proc, "php -S", 30)
            _wait_login_page(f"{base_url}/index.php", proc, php_log, 30)
            lap("php answers")
            seeded = frozenset(int(i) for i in made["entries"])
            server = MrbsServer(
                base_url, root, mrbs_psql, tool, accounts, seeded, seeded_on, timings, config
            )
            (logs / "timings.json").write_text(json.dumps(timings) + "\n")
            yield server
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)
