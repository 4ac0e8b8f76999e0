"""Booking rules, checked before the store's transaction.

Each violation raises ``BookingRejected(code, message)``; the codes are stable
(``bad_time``, ``outside_hours``, ``not_aligned``, ``too_long``, ``in_past``,
``too_far``, ``over_capacity``, ``purpose_required``, ``bad_attendees``), and
``slot_taken`` comes from the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from portal.clock import CLOSE_MIN, OPEN_MIN, SLOT_MIN, fmt_hhmm, parse_date, parse_hhmm
from portal.data import BOOKING_HORIZON_DAYS, Room
from portal.errors import BookingRejected

__all__ = ["MAX_DURATION_MIN", "BookingRequest", "validate"]

MAX_DURATION_MIN = 4 * 60


@dataclass(frozen=True, slots=True)
class BookingRequest:
    """A checked request: times normalised to zero-padded HH:MM."""

    day: date
    start: str
    end: str
    purpose: str
    attendees: int


def _reject(code: str, message: str) -> BookingRejected:
    return BookingRejected(code, message)


def validate(
    *, room: Room, day: str, start: str, end: str, purpose: str, attendees: str, now: datetime
) -> BookingRequest:
    """Check a raw form against the rules; ``now`` is Moscow time."""
    parsed_day = parse_date(day)
    start_min, end_min = parse_hhmm(start), parse_hhmm(end)
    if parsed_day is None or start_min is None or end_min is None:
        raise _reject("bad_time", "Укажите дату и время в формате ГГГГ-ММ-ДД и ЧЧ:ММ.")
    if end_min <= start_min:
        raise _reject("bad_time", "Время окончания должно быть позже времени начала.")
    if start_min < OPEN_MIN or end_min > CLOSE_MIN:
        raise _reject("outside_hours", "Аудитории можно бронировать только с 08:00 до 22:00.")
    if start_min % SLOT_MIN or end_min % SLOT_MIN:
        raise _reject("not_aligned", "Начало и окончание должны быть кратны 30 минутам.")
    if end_min - start_min > MAX_DURATION_MIN:
        raise _reject("too_long", "Одна бронь не может быть длиннее 4 часов.")
    today = now.date()
    now_min = now.hour * 60 + now.minute
    if parsed_day < today or (parsed_day == today and start_min < now_min):
        raise _reject("in_past", "Нельзя забронировать аудиторию на прошедшее время.")
    if parsed_day > today + timedelta(days=BOOKING_HORIZON_DAYS):
        raise _reject("too_far", "Бронировать можно не более чем на 14 дней вперёд.")
    if not purpose.strip():
        raise _reject("purpose_required", "Укажите цель бронирования.")
    try:
        count = int(attendees.strip() or "1")
    except ValueError:
        raise _reject("bad_attendees", "Число участников должно быть целым числом.") from None
    if count < 1:
        raise _reject("bad_attendees", "Число участников должно быть не меньше 1.")
    if count > room.capacity:
        raise _reject(
            "over_capacity",
            f"Участников больше, чем мест в аудитории {room.number} ({room.capacity}).",
        )
    return BookingRequest(
        day=parsed_day,
        start=fmt_hhmm(start_min),
        end=fmt_hhmm(end_min),
        purpose=purpose.strip()[:200],
        attendees=count,
    )
