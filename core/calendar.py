"""Bookings as an iCalendar file (``.ics``), for the user's calendar app.

Times are wall-clock times in the user's time zone (the zone the request was read in);
the file names that zone and carries its definition, so every calendar app places the
event right. A booking's number makes its event's UID, so importing the file again
updates the event instead of adding a second one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from zoneinfo import ZoneInfo

import icalendar
from pydantic import BaseModel

__all__ = ["CalendarEvent", "CalendarFile", "calendar_file"]

_PRODUCT = "-//club manager//clubman//EN"


class CalendarEvent(BaseModel):
    uid: str  # stable across files: the booking's number on its site
    title: str  # «Аудитория 301» / "Room 301"
    location: str  # «301, Главный корпус»
    day: dt.date
    start: dt.time
    end: dt.time


class CalendarFile(BaseModel):
    filename: str
    content: bytes


def _plain(text: str) -> str:
    """One line with no control characters: a site's room name can carry anything, and a
    raw CR, LF or NUL in a text field breaks or forges lines in the file (RFC 5545 §3.3.11
    allows no control characters but tab)."""
    return "".join(ch if ch.isprintable() or ch == " " else " " for ch in text).strip()


def calendar_file(
    events: Sequence[CalendarEvent], *, timezone: str, filename: str, now: dt.datetime
) -> CalendarFile:
    zone = ZoneInfo(timezone)
    calendar = icalendar.Calendar()
    calendar.add("prodid", _PRODUCT)
    calendar.add("version", "2.0")
    for event in events:
        entry = icalendar.Event()
        entry.add("uid", f"{_plain(event.uid)}@clubman")
        entry.add("summary", _plain(event.title))
        entry.add("location", _plain(event.location))
        entry.add("dtstart", dt.datetime.combine(event.day, event.start, tzinfo=zone))
        entry.add("dtend", dt.datetime.combine(event.day, event.end, tzinfo=zone))
        entry.add("dtstamp", now.astimezone(dt.UTC))
        calendar.add_component(entry)
    calendar.add_missing_timezones()
    return CalendarFile(filename=filename, content=calendar.to_ical())
