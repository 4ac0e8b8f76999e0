"""Indico's models and failures → the port's (``scenarios.booking``, ``core.site``), in one place.

Pure functions: no I/O, so the choices below are unit-tested without a server.

- Buildings: Indico's building string is the code ("7", «Библиотека»). A named building
  keeps it as its name; a bare number (Indico sites number their buildings) is named
  «Корпус 7» / "Building 7", since a lone «7» in «Забронированы 701, 702 (7, пт 27.11…)»
  or on a button says nothing. The NLU knows «в 7-м корпусе», «корпус 7», "building 7"
  either way.
- Horizon: Indico refuses a booking ending ``max_advance_days`` or more days after
  today (``Room.check_advance_days``); the port allows ``day <= today + horizon``, so a
  room's horizon is ``max_advance_days - 1``.
- Step: Indico accepts any minute; 30 keeps the product's half-hour grid, on which the
  bookable hours (08:00–22:00) lie.
- Longest: Indico has no length limit inside a day (``booking_limit_days`` counts
  days), so the longest booking is the whole common opening window; a shorter rule of
  ours would refuse what Indico allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, time

from adapters.indico import errors as ie
from adapters.indico import models as im
from core.errors import PortalError
from core.site.errors import LoginFailed, PortalUnavailable, SessionExpired
from core.site.models import Building, Catalogue, Interval, Room, Rules, merge_intervals
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.models import Booking

__all__ = [
    "KIND",
    "bookable",
    "booking",
    "building",
    "busy_intervals",
    "catalogue",
    "horizon",
    "port_error",
    "room",
    "rules",
]

KIND = "indico"
STEP_MINUTES = 30
DEFAULT_HORIZON = 30  # Indico's "no limit" (max_advance_days empty): a month, as seeded
_DAY_START, _DAY_END = time(0, 0), time(23, 30)  # a room without bookable hours, on the grid

_STATUS = {
    im.BookingState.ACCEPTED: "active",
    im.BookingState.PENDING: "pending",
    im.BookingState.CANCELLED: "cancelled",
    im.BookingState.REJECTED: "cancelled",
}

# Indico's refusals (HTTP 418 texts, typed by ``adapters.indico.http``) → the port's codes.
_CODES: tuple[tuple[type[ie.BookingRefused], str], ...] = (
    (ie.BeyondHorizon, "too_far"),
    (ie.SpansMidnight, "spans_midnight"),
    (ie.StartsInPast, "in_past"),
    (ie.OutsideBookableHours, "outside_hours"),
)


def _floor(value: str) -> int | None:
    try:
        return int(value)
    except ValueError:
        return None


def horizon(room: im.Room) -> int | None:
    return None if not room.max_advance_days else max(0, room.max_advance_days - 1)


def bookable(room: im.Room) -> bool:
    """The user may book it (outright, or as a pre-booking a manager approves)."""
    return room.is_reservable and (room.can_book or room.can_prebook)


def room(found: im.Room) -> Room:
    return Room(
        id=str(found.id),
        building=found.building,
        number=found.number,
        floor=_floor(found.floor),
        capacity=found.capacity,
        # Only a pre-booking is possible (Indico's reservations_need_confirmation for
        # this user: rights that stop at "prebook"): it stays pending until approved.
        needs_approval=not found.can_book,
        horizon_days=horizon(found),
    )


def _window(found: im.Room) -> tuple[time, time]:
    if not found.bookable_hours:
        return _DAY_START, _DAY_END
    start = min(h.start for h in found.bookable_hours)
    end = max(h.end for h in found.bookable_hours)
    return start, (_DAY_END if end >= im.DAY_END else end)


def rules(rooms: Iterable[im.Room]) -> Rules:
    """The hours every room is open (a common window), the half-hour grid, the window as
    the longest booking, and the farthest any room may be booked ahead."""
    listed = list(rooms)
    windows = [_window(r) for r in listed] or [(time(8, 0), time(22, 0))]
    opens = max(start for start, _ in windows)
    closes = min(end for _, end in windows)
    if opens >= closes:  # no common window: the widest one instead
        opens, closes = min(s for s, _ in windows), max(e for _, e in windows)
    horizons = [h for h in (horizon(r) for r in listed) if h is not None]
    minutes = (closes.hour * 60 + closes.minute) - (opens.hour * 60 + opens.minute)
    return Rules(
        opens=opens,
        closes=closes,
        step_minutes=STEP_MINUTES,
        longest_minutes=max(STEP_MINUTES, minutes),
        horizon_days=max(horizons, default=DEFAULT_HORIZON),
        rooms_per_booking=1,
    )


def building(code: str) -> Building:
    if code.isdigit():
        return Building(code=code, name=f"Корпус {code}", name_en=f"Building {code}")
    return Building(code=code, name=code)


def catalogue(found: im.Catalogue, *, read_at: datetime | None = None) -> Catalogue:
    """Rooms the user may book (approval-needed ones marked), and their buildings."""
    rooms = [r for r in found.rooms if bookable(r)]
    codes = dict.fromkeys(r.building for r in rooms)
    return Catalogue(
        system=KIND,
        buildings=tuple(building(code) for code in codes),
        rooms=tuple(room(r) for r in rooms),
        rules=rules(rooms),
        read_at=read_at,
    )


def _clip(start: datetime, end: datetime, day_start: datetime) -> Interval | None:
    day_end = day_start.replace(hour=23, minute=59)
    lo, hi = max(start, day_start), min(end, day_end)
    return (lo.time(), hi.time()) if lo < hi else None


def busy_intervals(
    found: im.RoomAvailability, mine: set[int]
) -> tuple[list[Interval], list[Interval]]:
    """(busy, mine) of one room's day: bookings, pre-bookings (they would be offered to the
    same people), blockings, closed periods and hours outside the room's bookable ones."""
    day_start = datetime.combine(found.day, time(0, 0))
    busy: list[Interval] = []
    own: list[Interval] = []
    for item in found.busy:
        clipped = _clip(item.start, item.end, day_start)
        if clipped is None:
            continue
        busy.append(clipped)
        if item.reservation_id is not None and item.reservation_id in mine:
            own.append(clipped)
    return merge_intervals(busy), merge_intervals(own)


def booking(found: im.Booking, rooms: Mapping[int, im.Room]) -> Booking:
    place = rooms.get(found.room_id)
    return Booking(
        number=str(found.id),
        building=place.building if place else "",
        building_name=building(place.building).name if place else "",
        room=place.number if place else str(found.room_id),
        room_id=str(found.room_id),
        day=found.start.date(),
        start=found.start.time(),
        end=found.end.time(),
        purpose=found.reason,
        status=_STATUS[found.state],
    )


def port_error(exc: ie.IndicoError) -> PortalError:
    """The port's error for an Indico failure, with Indico's own text (never a secret)."""
    text = exc.message
    if isinstance(exc, ie.SlotOccupied):
        return SlotTaken(text, code="taken")
    for kind, code in _CODES:
        if isinstance(exc, kind):
            return BookingRejected(text, code=code)
    if isinstance(exc, ie.BookingRefused):
        return BookingRejected(text, code="refused")
    if isinstance(exc, ie.NotAllowed):
        return BookingRejected(text, code="not_allowed")
    if isinstance(exc, ie.Missing):
        return BookingRejected(text, code="not_found")
    if isinstance(exc, ie.LoginRefused):
        return LoginFailed(text)
    if isinstance(exc, ie.PasswordChangeRequired):
        return LoginFailed(text, hint="Indico требует сменить пароль этой учётной записи")
    if isinstance(exc, ie.SessionLost):
        return SessionExpired(f"Сеанс Indico истёк: {text}", hint="попробуйте ещё раз")
    return PortalUnavailable(f"Indico не отвечает: {text}", hint="попробуйте позже")
