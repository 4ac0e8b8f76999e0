"""The day's grid as the demonstration's snapshot shows it, and the ``availability`` part
drafted from it: the table whose column titles are times (rooms in rows) or whose row
titles are (rooms in columns), each room's title and cells; what a room's title says
(number, floor, seats); and the site's own id of a room, where its form's address
carries that rather than the room's number."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from adapters.profile.learn.recording import Recording
from adapters.profile.learn.snapshot import Cell, Table, tables
from adapters.profile.learn.values import (
    DraftError,
    building_code,
    day_step,
    relative,
    templated,
)
from adapters.profile.patterns import compiled
from adapters.profile.template import DATE_FORMATS, parse_date, parse_time

__all__ = ["DayGrid", "RoomId", "day_grid", "draft_availability", "room_id", "room_picks"]


@dataclass(frozen=True)
class DayGrid:
    table: Table
    rooms_in: Literal["rows", "columns"]
    titles: list[str]  # each room's heading, in the grid's order
    lines: list[list[Cell]]  # each room's cells (known ones: a spanning cell hides some)

    def line_of(self, room: str) -> int | None:
        """Which line is the room's: the one whose heading starts with its number."""
        return next((i for i, t in enumerate(self.titles) if t.split(" ")[0] == room), None)


def _lead(rows: list[list[Cell]]) -> int:
    """How many header cells start a row (the time's, or the room's): as most rows have."""
    counts = [next((i for i, c in enumerate(r) if not c.header), len(r)) for r in rows]
    return max(set(counts), key=counts.count) if counts else 0


def _timed(texts: list[str]) -> bool:
    return sum(parse_time(t) is not None for t in texts) >= 2


def day_grid(snapshot: str) -> DayGrid | None:
    """The first table of the snapshot that is a day's grid of rooms and times."""
    for table in tables(snapshot):
        rows = [row for row in table.rows if any(not c.header for c in row)]
        lead = _lead(rows)
        if not rows or lead == 0:
            continue
        if _timed(table.heads):  # times across: one room a row, titled by its header
            lines = [row[lead:] for row in rows]
            return DayGrid(table, "rows", [row[0].text for row in rows], lines)
        if _timed([row[0].text for row in rows]):  # times down: one room a column
            titles = table.heads[lead:]
            # A cell spanning rows leaves the rows below it short: only a whole row says
            # which column a cell is in.
            whole = [row[lead:] for row in rows if len(row) - lead == len(titles)]
            columns = [[row[at] for row in whole] for at in range(len(titles))]
            return DayGrid(table, "columns", titles, columns)
    return None


# Unit words: a floor («2 этаж», «эт. 2», «floor 2») and seats («24 места», «30 seats»).
_FLOOR = ("этаж", "эт", "floor", "fl", "level")
_SEATS = ("мест", "seat", "чел", "place", "person", "people")


def _unit_regex(units: tuple[str, ...], title: str) -> str | None:
    """The regex reading the number the title writes beside a unit word, before it
    («2 этаж» → ``(\\d+)\\s*этаж``) or after it («эт. 2» → ``эт\\w*\\.?\\s*(\\d+)``). The
    title's first word, the room's number, is not the unit's."""
    rest = title.split(" ", 1)[1] if " " in title.strip() else ""
    for unit in units:
        stem = re.escape(unit)
        # The unit as the title writes it («Этаж»): the regex runs case-sensitively.
        if found := re.search(rf"\d+\s*({stem})", rest, re.IGNORECASE):
            return rf"(\d+)\s*{re.escape(found[1])}"
        if found := re.search(rf"(?<!\w)({stem})\w*\.?\s*\d+", rest, re.IGNORECASE):
            return rf"{re.escape(found[1])}\w*\.?\s*(\d+)"
    return None


def room_picks(title: str) -> dict[str, Any]:
    """How a room's heading is read: its number first, then its floor and seats where
    the heading writes them."""
    room: dict[str, Any] = {"number": {"regex": r"^\s*(\S+)"}}
    floor, seats = _unit_regex(_FLOOR, title), _unit_regex(_SEATS, title)
    if floor:
        room["floor"] = {"regex": floor, "format": "int"}
    if seats:
        room["capacity"] = {"regex": seats, "format": "int"}
    return room


@dataclass(frozen=True)
class RoomId:
    value: str  # as the booking form's address wrote it
    regex: str  # reads it from a link's address (group 1)


def _places(url: str) -> list[tuple[str, str]]:
    """(value, regex reading it) for each query value and path segment of an address."""
    parts = re.match(r"^(?:[a-z]+://[^/]+)?(?P<path>[^?#]*)(?:\?(?P<query>[^#]*))?", url)
    assert parts is not None  # every text matches
    found = []
    for pair in (parts["query"] or "").split("&"):
        key, _, value = pair.partition("=")
        if key and value:
            found.append((value, rf"[?&]{re.escape(key)}=([^&#]+)"))
    segments = parts["path"].split("/")
    for before, segment in zip(segments, segments[1:], strict=False):
        if before and segment:
            found.append((segment, rf"/{re.escape(before)}/([^/?#]+)"))
    return found


def room_id(recording: Recording) -> RoomId | None:
    """The site's id of the booked room, when the booking form's address has a value
    that is none of the named ones and the grid's links carry it for that room alone
    (each room's links another): ``/reserve?room=17&…`` beside links ``room=17`` in room
    201's cells only. None when the form's address names the room by what was named."""
    day, book = recording.step("day"), recording.step("book")
    opened = next((a for a in book.actions if a.kind == "navigate"), None) if book else None
    grid = day_grid(day.snapshot) if day else None
    if book is None or opened is None or grid is None or "room" not in book.answers:
        return None
    at = grid.line_of(book.answers["room"])
    if at is None:
        return None
    building = building_code(recording, book.answers)
    for value, regex in _places(opened.url):
        if "{" in templated(value, book.answers, building=building):
            continue  # a value that was named: not the site's own
        reads = compiled(regex)  # a profile regex: run as the profile will run it
        carried = [[m[1] for c in cells if (m := reads.search(c.url))] for cells in grid.lines]
        mine = carried[at]
        others = {v for i, cells in enumerate(carried) if i != at for v in cells}
        if mine and set(mine) == {value} and others and value not in others:
            return RoomId(value, regex)
    return None


def draft_availability(recording: Recording) -> dict[str, Any]:
    """The ``availability`` part from the day's page: its address with the day and the
    building as variables, and its grid (``day_grid``): a slot is timed by the time
    heading its column or row and lasts one step, a free slot is a cell holding a link;
    a room's number, floor and seats from its heading, its id (``room_id``) from the
    links of its free cells; the caption's day, where the caption writes it."""
    step = day_step(recording)
    building = building_code(recording, step.answers)
    grid = day_grid(step.snapshot)
    if grid is None or not grid.titles:
        raise DraftError(
            "На странице дня не видно таблицы аудиторий и времени: откройте её ещё раз"
        )
    room = room_picks(grid.titles[0])
    site_id = room_id(recording)
    if site_id is not None:  # only free slots link to the form: the first that carries it
        room["id"] = {"of": "cells", "css": "a@href", "regex": site_id.regex}
    # The table's name without what changes with the day and the building.
    stem = re.split(r"[:,(]", grid.table.name, maxsplit=1)[0].strip()
    table: dict[str, Any] = {"role": "table", "name": stem, "exact": False}
    drafted: dict[str, Any] = {
        "table": [table if stem else {"role": "table"}],
        "rooms_in": grid.rooms_in,
        "header_lines": 1,
        "room": room,
        "slot": {"time": {"of": "header", "format": "hhmm"}, "free": {"has": "a[href]"}},
    }
    day = date.fromisoformat(step.answers["date"])
    shown = next((f for f in DATE_FORMATS if parse_date(grid.table.caption, f) == day), None)
    if shown is not None:  # the grid says its day: one of another day is not taken for it
        drafted["caption_date"] = {"css": "caption", "format": shown}
    return {
        "open": {"url": templated(relative(step.url), step.answers, building=building)},
        "grid": drafted,
    }
