"""Booking rules: a raw form in, a checked request out, or ``Refused(code, message)``.

Codes: ``invalid`` (a malformed or incomplete form), ``hours`` (outside 08:00–22:00),
``too_long`` (over 4 hours), ``past``, ``too_far`` (over 14 days ahead) — HTTP 422;
``busy`` (a conflict, raised by the store) — HTTP 409.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from portal.data import BOOKING_HORIZON_DAYS
from portal.legacy.data import Room
from portal.legacy.timefmt import (
    CLOSE_SEC,
    OPEN_SEC,
    STEP_SEC,
    parse_dmy,
    parse_seconds,
    seconds_of,
)

__all__ = ["BUSY_MESSAGE", "LONGEST_SEC", "MAX_COMMENT", "Refused", "Request", "check"]

LONGEST_SEC = 4 * 3600
MAX_COMMENT = 200
BUSY_MESSAGE = "Time slot is already booked"  # English on purpose: the old system's own text


class Refused(Exception):
    """A refused booking: ``code`` for machines, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = 409 if code == "busy" else 422


@dataclass(frozen=True, slots=True)
class Request:
    room: Room
    day: date
    start: int  # seconds since midnight
    end: int
    purpose: str
    people: int | None


def _people(text: str, room: Room) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise Refused("invalid", "Число участников должно быть целым положительным числом.")
    if int(text) > room.capacity:
        raise Refused("invalid", f"В аудитории {room.number} только {room.capacity} мест.")
    return int(text)


def check(
    *, room: Room, day: str, start: str, end: str, comment: str, people: str, now: datetime
) -> Request:
    """Check a form against the rules; ``now`` is Moscow time."""
    parsed_day = parse_dmy(day)
    if parsed_day is None:
        raise Refused("invalid", "Неверная дата: укажите её в формате ДД.ММ.ГГГГ.")
    start_sec, end_sec = parse_seconds(start), parse_seconds(end)
    if start_sec is None or end_sec is None:
        raise Refused("invalid", "Выберите время начала и окончания.")
    if start_sec < OPEN_SEC or end_sec > CLOSE_SEC:
        raise Refused("hours", "Аудитории можно бронировать только с 08:00 до 22:00.")
    if end_sec <= start_sec:
        raise Refused("invalid", "Время окончания должно быть позже времени начала.")
    if start_sec % STEP_SEC or end_sec % STEP_SEC:
        raise Refused("invalid", "Время начала и окончания должно быть кратно 30 минутам.")
    if end_sec - start_sec > LONGEST_SEC:
        raise Refused("too_long", "Бронь не может быть длиннее 4 часов.")
    today = now.date()
    if parsed_day < today or (parsed_day == today and start_sec < seconds_of(now)):
        raise Refused("past", "Нельзя бронировать на прошедшее время.")
    if parsed_day > today + timedelta(days=BOOKING_HORIZON_DAYS):
        raise Refused("too_far", "Бронировать можно не более чем на 14 дней вперёд.")
    purpose = comment.strip()
    if not purpose:
        raise Refused("invalid", "Заполните поле Comment: укажите цель брони.")
    if len(purpose) > MAX_COMMENT:
        raise Refused("invalid", f"Comment: не более {MAX_COMMENT} символов.")
    return Request(room, parsed_day, start_sec, end_sec, purpose, _people(people, room))
