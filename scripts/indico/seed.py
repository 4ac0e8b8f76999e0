"""Seed and poke a test Indico through Indico's own Python API (run with Indico's venv python).

Our client under test must never be the thing that checks itself, so fixtures create
data (users, rooms, someone else's bookings) here, in-process with Indico's models:

    INDICO_CONFIG=... .indico-venv/bin/python scripts/indico/seed.py seed < spec.json
    INDICO_CONFIG=... .indico-venv/bin/python scripts/indico/seed.py book < booking.json
    INDICO_CONFIG=... .indico-venv/bin/python scripts/indico/seed.py cancel < who.json
    INDICO_CONFIG=... .indico-venv/bin/python scripts/indico/seed.py register < who.json

``seed`` merges the JSON on stdin over ``seed.json`` (top-level keys) on a freshly
prepared database and prints what it made (ids, no passwords). ``book`` creates one
booking as a seeded user, exactly as Indico's booking form would (conflicts and rules
apply), and prints its id and state. ``cancel`` cancels every live booking made for a
seeded user but those ``keep`` names (a clean slate between tests) and prints their
ids. ``register`` registers a seeded user in an event's registration form
(``regform_id``) as Indico's form would, but without its e-mail deliverability check
(no DNS here). Errors go to stderr with a non-zero exit. ``serve`` answers those three,
one JSON line per request, until stdin closes (``scripts/indico/tools.py``).
"""

from __future__ import annotations

import json
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path

from flask import Flask, session
from indico.core.config import config
from indico.core.db import db
from indico.core.errors import NoReportError
from indico.modules.auth import Identity
from indico.modules.categories import Category
from indico.modules.rb.models.locations import Location
from indico.modules.rb.models.reservations import (
    ConflictingOccurrences,
    RepeatFrequency,
    Reservation,
    ReservationState,
)
from indico.modules.rb.models.room_bookable_hours import BookableHours
from indico.modules.rb.models.rooms import Room
from indico.modules.users import User
from indico.modules.users.operations import create_user
from indico.util.date_time import now_utc
from indico.web.flask.app import make_app

HERE = Path(__file__).resolve().parent


def _today() -> date:
    """Today where Indico's server clock is (its room booking works in DEFAULT_TIMEZONE)."""
    import pytz

    return now_utc().astimezone(pytz.timezone(config.DEFAULT_TIMEZONE)).date()


def _hm(text: str) -> time:
    return datetime.strptime(text, "%H:%M").time()


def _user(username: str) -> User:
    identity = Identity.query.filter_by(provider="indico", identifier=username).one()
    return identity.user


def _book(user: User, room: Room, start: datetime, end: datetime, reason: str) -> Reservation:
    data = {
        "start_dt": start,
        "end_dt": end,
        "repeat_frequency": RepeatFrequency.NEVER,
        "repeat_interval": 0,
        "booking_reason": reason,
        "booked_for_user": user,
    }
    session.set_session_user(user)
    try:
        return Reservation.create_from_data(room, data, user)
    finally:
        session.set_session_user(None)


def seed(spec: dict) -> dict:
    users = {}
    for username, info in spec["users"].items():
        identity = Identity(provider="indico", identifier=username, password=info["password"])
        user = create_user(
            info["email"],
            {"first_name": info["first_name"], "last_name": info["last_name"], "affiliation": ""},
            identity,
        )
        user.is_admin = bool(info.get("admin"))
        users[username] = user
    db.session.flush()
    admin = next((u for u in users.values() if u.is_admin), next(iter(users.values())))

    # Categories where the named users may create events (the club's, for organising them).
    categories = []
    for info in spec.get("categories", []):
        category = Category(parent=Category.get_root(), title=info["title"], description="")
        db.session.add(category)
        db.session.flush()
        for creator in info.get("creators", []):
            category.update_principal(users[creator], permissions={"create"}, quiet=True)
        categories.append({"id": category.id, "title": category.title})

    location = Location(name=spec["location"])
    db.session.add(location)
    db.session.flush()
    start_h, end_h = (_hm(x) for x in spec["bookable_hours"])
    rooms = {}
    for info in spec["rooms"]:
        room = Room(
            location=location,
            building=info["building"],
            floor=info["floor"],
            number=info["number"],
            capacity=info["capacity"],
            verbose_name=info.get("verbose_name"),
            owner=admin,
            is_reservable=info.get("is_reservable", True),
            reservations_need_confirmation=info.get("needs_confirmation", False),
            max_advance_days=info.get("max_advance_days", spec["max_advance_days"]),
        )
        room.bookable_hours.append(BookableHours(start_time=start_h, end_time=end_h))
        db.session.add(room)
        db.session.flush()
        rooms[room.name] = room

    bookings = []
    today = _today()
    for info in spec.get("bookings", []):
        day = today + timedelta(days=info["day"])
        resv = _book(
            users[info["user"]],
            rooms[info["room"]],
            datetime.combine(day, _hm(info["start"])),
            datetime.combine(day, _hm(info["end"])),
            info["reason"],
        )
        bookings.append({"id": resv.id, "room_id": resv.room_id, "user": info["user"]})
    db.session.commit()
    return {
        "users": {
            name: {"id": u.id, "email": u.email, "full_name": u.full_name, "is_admin": u.is_admin}
            for name, u in users.items()
        },
        "categories": categories,
        "location": {"id": location.id, "name": location.name},
        "rooms": [
            {
                "id": r.id,
                "name": r.name,
                "full_name": r.full_name,
                "building": r.building,
                "floor": r.floor,
                "number": r.number,
                "capacity": r.capacity,
                "needs_confirmation": r.reservations_need_confirmation,
                "max_advance_days": r.max_advance_days,
            }
            for r in rooms.values()
        ],
        "bookings": bookings,
        "seeded_on": today.isoformat(),
    }


def book(spec: dict) -> dict:
    room = Room.query.filter_by(id=spec["room_id"], is_deleted=False).one()
    start = datetime.fromisoformat(spec["start"])
    end = datetime.fromisoformat(spec["end"])
    try:
        resv = _book(
            _user(spec.get("user", "other")), room, start, end, spec.get("reason", "Someone else")
        )
        db.session.commit()
    except (NoReportError, ConflictingOccurrences) as exc:
        db.session.rollback()
        raise SystemExit(f"refused: {type(exc).__name__}: {exc}") from None
    return {"id": resv.id, "state": resv.state.name}


def cancel(spec: dict) -> dict:
    user = _user(spec.get("user", "club"))
    live = (ReservationState.pending, ReservationState.accepted)
    keep = spec.get("keep", [])
    found = Reservation.query.filter(
        Reservation.booked_for_id == user.id,
        Reservation.state.in_(live),
        ~Reservation.id.in_(keep),
    ).all()
    for resv in found:
        resv.cancel(user, silent=True)
    db.session.commit()
    return {"cancelled": sorted(r.id for r in found)}


def register(spec: dict) -> dict:
    from indico.modules.events.registration.models.forms import RegistrationForm
    from indico.modules.events.registration.util import create_registration

    regform = RegistrationForm.query.filter_by(id=spec["regform_id"], is_deleted=False).one()
    user = _user(spec.get("user", "other"))
    data = {"email": user.email, "first_name": user.first_name, "last_name": user.last_name}
    session.set_session_user(user)
    try:
        registration = create_registration(regform, data, notify_user=False)
        db.session.commit()
    finally:
        session.set_session_user(None)
    return {"id": registration.id, "state": registration.state.name}


_COMMANDS = {"book": book, "cancel": cancel, "register": register}
_USAGE = f"usage: {sys.argv[0]} seed|book|cancel|register|serve < spec.json"


def serve(app: Flask) -> None:
    """Answer one JSON request per stdin line (``{"command": ..., "spec": {...}}``) with one
    JSON line (``{"result": ...}`` or ``{"error": ...}``): importing Indico costs seconds, so
    tests keep one of these running instead of a process per poke."""
    answers = sys.stdout
    sys.stdout = sys.stderr  # anything Indico prints must not mix with the answers
    for line in sys.stdin:
        request = json.loads(line)
        with app.test_request_context():
            try:
                answer = {"result": _COMMANDS[request["command"]](request.get("spec") or {})}
            except (Exception, SystemExit) as exc:  # the caller raises it; this process goes on
                db.session.rollback()
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            finally:
                # The next request reads what the server wrote since, on a new connection:
                # tests of outages end every PostgreSQL connection in between.
                db.session.remove()
                db.engine.dispose()
        answers.write(json.dumps(answer, ensure_ascii=False) + "\n")
        answers.flush()


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    app = make_app()
    if command == "serve":
        serve(app)
        return
    given = json.loads(sys.stdin.read() or "{}")
    with app.test_request_context():
        if command == "seed":
            spec = json.loads((HERE / "seed.json").read_text()) | given
            result = seed(spec)
        elif command in _COMMANDS:
            result = _COMMANDS[command](given)
        else:
            raise SystemExit(_USAGE)
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
