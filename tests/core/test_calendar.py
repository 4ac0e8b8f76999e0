"""The .ics file: text fields carry no control characters, whatever a site's names hold."""

from __future__ import annotations

import datetime as dt

import icalendar

from core.calendar import CalendarEvent, calendar_file


def test_control_characters_in_names_are_written_as_plain_spaces() -> None:
    event = CalendarEvent(
        uid="595\r\nATTENDEE:mailto:x@evil",
        title="Аудитория 301\x00\x1b[31m",
        location="301,\nГлавный корпус\r\nBEGIN:VALARM",
        day=dt.date(2026, 11, 26),
        start=dt.time(18),
        end=dt.time(20),
    )
    made = calendar_file(
        [event],
        timezone="Europe/Moscow",
        filename="b.ics",
        now=dt.datetime(2026, 11, 23, tzinfo=dt.UTC),
    )
    text = made.content.decode()
    assert "\x00" not in text and "\x1b" not in text
    parsed = icalendar.Calendar.from_ical(made.content)
    [vevent] = [c for c in parsed.walk() if c.name == "VEVENT"]
    assert str(vevent["location"]) == "301, Главный корпус  BEGIN:VALARM"
    assert str(vevent["summary"]) == "Аудитория 301  [31m"
    assert str(vevent["uid"]).startswith("595  ATTENDEE") and "ATTENDEE" not in vevent
    assert not [c for c in parsed.walk() if c.name == "VALARM"]
