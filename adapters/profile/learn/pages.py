"""Drafting the parts read from pages (from their accessibility snapshots): the day's
grid and its building drop-down, the rules the page states, a booking's own page and
«my bookings». Which column or «term» holds what is told by the values of the booking
the operator made."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, time
from typing import Any
from urllib.parse import urlsplit

from adapters.profile.learn.recording import Recording, Step
from adapters.profile.learn.snapshot import comboboxes, tables, terms
from adapters.profile.learn.values import (
    DraftError,
    booking_number,
    building_code,
    relative,
    templated,
)
from adapters.profile.template import DATE_FORMATS, parse_date, parse_time

__all__ = [
    "draft_availability",
    "draft_booking_page",
    "draft_catalogue",
    "draft_my_bookings",
    "draft_rules",
]


def _which(
    text: str, *, answers: Mapping[str, str], purpose: str
) -> tuple[str, dict[str, str]] | None:
    """Which of a booking's fields ``text`` shows, and how it is read (None: not one)."""
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    clocks = [t for t in map(parse_time, re.findall(r"\d{1,2}[:.]\d{2}", text)) if t]
    fmt = next((f for f in DATE_FORMATS if parse_date(text, f) == day), None)
    if text == purpose:
        return "purpose", {}
    if text.split(" ")[0] == answers["room"]:
        return "room", {} if text == answers["room"] else {"regex": r"^\s*(\S+)"}
    if clocks[:2] == [start, end]:
        return "time", {"format": "span"}
    if fmt is not None:
        return "date", {"format": fmt}
    return None


def draft_booking_page(recording: Recording) -> dict[str, Any]:
    """The ``booking_page`` part from the page the booking form led to: its address with
    the number as ``{number}``, and its «term: value» pairs told by their values (the
    one other pair that is not a count, the building)."""
    book = recording.step("book")
    if book is None:
        raise DraftError("Бронь не показана")
    number = booking_number(recording)
    purpose = next((a.value for a in book.actions if a.kind == "fill" and a.value), "")
    picks: dict[str, dict[str, str]] = {}
    others = []
    for term, text in terms(book.snapshot).items():
        which = _which(text, answers=book.answers, purpose=purpose)
        if which is None:
            if not text.isdigit():
                others.append(term)
            continue
        picks.setdefault(which[0], {"term": term, **which[1]})
    if len(others) == 1:
        picks["building"] = {"term": others[0]}
    if set(picks) != {"building", "room", "date", "time", "purpose"}:
        raise DraftError(
            "На странице брони не видно всех её данных: после брони оставьте открытой её "
            "страницу и покажите бронь ещё раз"
        )
    path = urlsplit(book.url).path
    at = path.rfind(number)
    url = templated(path[:at], {}) + "{number}" + templated(path[at + len(number) :], {})
    return {"url": url, **picks}


def draft_my_bookings(recording: Recording) -> dict[str, Any]:
    """The ``my_bookings`` part from the step that showed «my bookings»: the table whose
    row holds the booking made, and which column is which, told by the values in that
    row (its number, the day in a date format, the times, the room, the purpose typed).
    The one other column with text (not the cancel control's) is the building."""
    step, book = recording.step("my_bookings"), recording.step("book")
    if step is None or book is None:
        raise DraftError("«Мои брони» не показаны: откройте их ещё раз")
    answers = book.answers
    purpose = next((a.value for a in book.actions if a.kind == "fill" and a.value), "")
    number = booking_number(recording)
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    # The cancel control's column (its text is the control's name) is not a field.
    cancel = recording.step("cancel")
    controls = {c.name for a in (cancel.actions if cancel else ()) for c in a.candidates if c.name}
    for name, heads, cells in tables(step.snapshot):
        rows = [[cell.text for cell in row] for row in cells]
        row = next((r for r in rows if purpose in r and number in r), None)
        if row is None or len(heads) != len(row):
            continue
        picks: dict[str, dict[str, str]] = {}
        others = []
        for head, text in zip(heads, row, strict=True):
            clocks = [t for t in map(parse_time, re.findall(r"\d{1,2}[:.]\d{2}", text)) if t]
            fmt = next((f for f in DATE_FORMATS if parse_date(text, f) == day), None)
            if text == number:
                picks["number"] = {"column": head}
            elif text == purpose:
                picks["purpose"] = {"column": head}
            elif text == answers["room"]:
                picks["room"] = {"column": head}
            elif clocks[:2] == [start, end]:
                picks["time"] = {"column": head, "format": "span"}
            elif fmt is not None:
                picks["date"] = {"column": head, "format": fmt}
            elif text and text not in controls:
                others.append(head)
        if len(others) == 1:
            picks["building"] = {"column": others[0]}
        if {"number", "date", "time", "purpose"} <= picks.keys():
            return {
                "open": {"url": templated(relative(step.url), {})},
                "table": [{"role": "table", "name": name}],
                **picks,
            }
    raise DraftError("В «моих бронях» не видно таблицы со сделанной бронью: откройте их ещё раз")


_FLOOR = re.compile(r"\d+\s*(эт\w*|floor\w*)", re.IGNORECASE)
_SEATS = re.compile(r"\d+\s*(мест\w*|seat\w*|чел\w*)", re.IGNORECASE)


def _day_step(recording: Recording) -> Step:
    step = recording.step("day")
    if step is None or "date" not in step.answers:
        raise DraftError("Занятость аудиторий не показана: откройте её ещё раз")
    return step


def _unit_regex(pattern: re.Pattern[str], text: str) -> str | None:
    """«2 этаж» → ``(\\d+)\\s*этаж``: the number before the unit word the page writes."""
    found = pattern.search(text)
    return rf"(\d+)\s*{re.escape(found[1])}" if found else None


def draft_availability(recording: Recording) -> dict[str, Any]:
    """The ``availability`` part from the day's page: its address with the day and the
    building as variables, and its grid — the table whose column titles are times (rooms
    in rows, each slot timed by its column) or whose row titles are (rooms in columns);
    a free slot is a cell holding a link; a room's number, floor and seats from its
    heading."""
    step = _day_step(recording)
    building = building_code(recording, step.answers)
    for name, heads, rows in tables(step.snapshot):
        timed = [h for h in heads if parse_time(h) is not None]
        if len(timed) < 2 or not rows:
            continue
        titles = [row[0].text for row in rows if row and row[0].header]
        if not titles:
            continue
        room: dict[str, Any] = {"number": {"regex": r"^\s*(\S+)"}}
        floor, seats = _unit_regex(_FLOOR, titles[0]), _unit_regex(_SEATS, titles[0])
        if floor:
            room["floor"] = {"regex": floor, "format": "int"}
        if seats:
            room["capacity"] = {"regex": seats, "format": "int"}
        # The table's name without what changes with the day and the building.
        stem = re.split(r"[:,(]", name, maxsplit=1)[0].strip()
        return {
            "open": {"url": templated(relative(step.url), step.answers, building=building)},
            "grid": {
                "table": [{"role": "table", "name": stem, "exact": False}],
                "rooms_in": "rows",
                "header_lines": 1,
                "room": room,
                "slot": {"time": {"of": "header", "format": "hhmm"}, "free": {"has": "a[href]"}},
            },
        }
    raise DraftError("На странице дня не видно таблицы аудиторий и времени: откройте её ещё раз")


def draft_catalogue(recording: Recording) -> dict[str, Any]:
    """The ``catalogue`` part: the buildings are the options of the day page's drop-down
    whose chosen option is the building shown (the one with several options)."""
    step = _day_step(recording)
    for name, options, chosen in comboboxes(step.snapshot):
        if len(options) > 1 and chosen:
            return {
                "buildings": {
                    "open": {"url": urlsplit(step.url).path},
                    "select": [{"role": "combobox", "name": name}],
                }
            }
    raise DraftError(
        "На странице дня не видно списка корпусов: выберите корпус в списке и покажите снова"
    )


_HOURS = re.compile(r"(\d{1,2}:\d{2})\s*[–—-]\s*(\d{1,2}:\d{2})")


def draft_rules(recording: Recording) -> dict[str, Any]:
    """The ``rules`` part as the day's page states them in words («08:00–22:00, шаг 30
    минут, не более 4 часов, на 14 дней вперёд»); what it does not state is left to the
    defaults (docs/profiles.md), to be checked."""
    text = _day_step(recording).snapshot
    rules: dict[str, Any] = {}
    hours = None
    for line in text.splitlines():
        if re.search(r"шаг|step", line, re.IGNORECASE) and _HOURS.search(line):
            hours = _HOURS.search(line)
            rules |= _stated(line)
    if hours:
        rules["opens"], rules["closes"] = hours[1], hours[2]
    return rules


def _stated(line: str) -> dict[str, int]:
    stated: dict[str, int] = {}
    if step := re.search(r"шаг\D{0,20}(\d+)\s*мин|step\D{0,20}(\d+)\s*min", line, re.I):
        stated["step_minutes"] = int(step[1] or step[2])
    if longest := re.search(r"(\d+)\s*(час|hour)", line, re.I):
        stated["longest_minutes"] = int(longest[1]) * 60
    if ahead := re.search(r"(\d+)\s*(дн|day)", line, re.I):
        stated["horizon_days"] = int(ahead[1])
    return stated
