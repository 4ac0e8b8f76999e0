"""The day's grid as the demonstration's snapshot shows it, and the ``availability`` part
drafted from it: the table whose column titles are times (rooms in rows) or whose row
titles are (rooms in columns), each room's title and cells; what a room's title says
(number, floor, seats); and the site's own id of a room, where its form's address
carries that rather than the room's number.

What a profile reads is the page's DOM, not its snapshot, so the draft checks itself
against what the recorder kept of the DOM (``adapters.profile.learn.titles``): a room's
number is read so that it gives the room as the operator named it, from its heading's
text as a profile reads it («10130»: the number with its capacity glued on, left out
with ``without``; «Ауд. 113»: the number after a prefix, by a regex). A free slot is a
cell holding a link like the one the operator opened the booking form from (its path),
not any link: a booked cell links to the booking. The day is checked where the page
writes it in a known format, in the table's caption or anywhere on the page."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.catalogue import building_address
from adapters.profile.learn.recording import PickedText, Recording, Step, TitleCell, TitlePart
from adapters.profile.learn.snapshot import Cell, Table, tables
from adapters.profile.learn.values import date_format, day_step, templated
from adapters.profile.patterns import compiled
from adapters.profile.template import DATE_FORMATS, parse_date, parse_time

__all__ = [
    "DayGrid",
    "RoomId",
    "RoomTitle",
    "day_grid",
    "draft_availability",
    "free_link",
    "room_id",
    "room_picks",
    "room_title",
    "title_regex",
]


@dataclass(frozen=True)
class DayGrid:
    table: Table
    rooms_in: Literal["rows", "columns"]
    titles: list[str]  # each room's heading, in the grid's order
    lines: list[list[Cell]]  # each room's cells (known ones: a spanning cell hides some)

    def line_of(self, room: str) -> int | None:
        """Which line is the room's: the one whose heading starts with its number, else
        the first whose heading has it as a word («Ауд. 113»)."""
        first = next((i for i, t in enumerate(self.titles) if t.split(" ")[0] == room), None)
        if first is not None:
            return first
        return next((i for i, t in enumerate(self.titles) if _word_at(t, room) is not None), None)


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
# What an element's classes call a number glued to a room's name (MRBS's «capacity»).
_FLOOR_CLASS = re.compile(r"floor|level|storey|etazh", re.IGNORECASE)
_SEATS_CLASS = re.compile(r"capac|seat|place|mest", re.IGNORECASE)


def _unit_regex(units: tuple[str, ...], text: str) -> str | None:
    """The regex reading the number ``text`` writes beside a unit word, before it
    («2 этаж» → ``(\\d+)\\s*этаж``) or after it («эт. 2» → ``эт\\w*\\.?\\s*(\\d+)``)."""
    for unit in units:
        stem = re.escape(unit)
        # The unit as the title writes it («Этаж»): the regex runs case-sensitively.
        if found := re.search(rf"\d+\s*({stem})", text, re.IGNORECASE):
            return rf"(\d+)\s*{re.escape(found[1])}"
        if found := re.search(rf"(?<!\w)({stem})\w*\.?\s*\d+", text, re.IGNORECASE):
            return rf"{re.escape(found[1])}\w*\.?\s*(\d+)"
    return None


def room_picks(title: str) -> dict[str, Any]:
    """How a room's heading is read: its number first (its first word), then its floor
    and seats where the heading writes them after it."""
    room: dict[str, Any] = {"number": {"regex": r"^\s*(\S+)"}}
    rest = title.split(" ", 1)[1] if " " in title.strip() else ""
    floor, seats = _unit_regex(_FLOOR, rest), _unit_regex(_SEATS, rest)
    if floor:
        room["floor"] = {"regex": floor, "format": "int"}
    if seats:
        room["capacity"] = {"regex": seats, "format": "int"}
    return room


def _word_at(title: str, room: str) -> int | None:
    """Where ``title`` writes the room's name as whole words: its first word's index."""
    words, named = title.split(), room.split()
    size = len(named)
    if not size:
        return None
    return next((i for i in range(len(words) - size + 1) if words[i : i + size] == named), None)


def title_regex(title: str, room: str) -> str | None:
    """The regex whose group 1 reads ``room`` from a room's heading, by where the heading
    writes it: as its first words («101», «101 (2 этаж)»), its last («Ауд. 113»), after
    so many words, or glued after a prefix that ends in a sign («Ауд.113», «№113»). None
    where the heading does not write it whole («10130»: a capacity glued on)."""
    named = room.split()
    if not named:
        return None
    group = r"(\S+" + r"\s+\S+" * (len(named) - 1) + ")"
    words = title.split()
    at = _word_at(title, room)
    if at == 0:
        regex = rf"^\s*{group}"
    elif at is not None and at + len(named) == len(words):
        regex = rf"{group}\s*$"
    elif at is not None:
        regex = rf"^\s*(?:\S+\s+){{{at}}}{group}"
    else:
        glued = next(
            (i for i, word in enumerate(words)
             if len(named) == 1 and len(word) > len(room) and word.endswith(room)
             and not word[-len(room) - 1].isalnum()),
            None,
        )  # fmt: skip
        if glued is None:
            return None
        skipped = rf"(?:\S+\s+){{{glued}}}" if glued else ""
        regex = rf"^\s*{skipped}{re.escape(words[glued][: -len(room)])}(\S+)"
    found = compiled(regex).search(title)  # a profile regex: run as the profile will run it
    return regex if found is not None and found[1] == room else None


@dataclass(frozen=True)
class RoomTitle:
    """How a room's heading gives the room as the operator named it: the number's pick,
    the text it reads (for the floor and seats the heading writes), the element left
    out of the heading to read it (a capacity glued on), and the grid's table's CSS."""

    number: dict[str, Any]
    text: str
    left_out: TitlePart | None = None
    table: str = ""


def room_title(titles: Sequence[TitleCell], shown: str, room: str) -> RoomTitle | None:
    """How the heading that names ``room`` is read to give it: from its text as a profile
    reads it (the DOM's ``titles``), whole or with a glued element left out; without
    those (an older recording), from the snapshot's title ``shown``. None where neither
    writes it."""
    for cell in titles:
        if regex := title_regex(cell.text, room):
            return RoomTitle({"regex": regex}, cell.text, table=cell.table)
        for part in cell.parts:
            if regex := title_regex(part.rest, room):
                pick = {"without": part.css, "regex": regex}
                return RoomTitle(pick, part.rest, part, cell.table)
    if titles:
        return None  # the DOM says what is read; the snapshot's text is not it
    regex = title_regex(shown, room)
    return RoomTitle({"regex": regex}, shown) if regex else None


def _glued_picks(part: TitlePart) -> dict[str, Any]:
    """The floor or seats an element glued to a room's name says: by the unit it writes
    («2 этаж»), else a bare number by what its classes call it (``span.capacity``)."""
    picks: dict[str, Any] = {}
    for name, units, classes in (
        ("floor", _FLOOR, _FLOOR_CLASS),
        ("capacity", _SEATS, _SEATS_CLASS),
    ):
        if regex := _unit_regex(units, part.text):
            picks[name] = {"css": part.css, "regex": regex, "format": "int"}
        elif part.text.isdigit() and classes.search(part.css):
            picks[name] = {"css": part.css, "format": "int"}
    return picks


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
    for value, regex in _places(opened.url):
        # A value that was named is not the site's own; the building's code may be (MRBS:
        # «area=1&room=1»): every room's links carry the building's, so it is never taken.
        if "{" in templated(value, book.answers):
            continue
        reads = compiled(regex)  # a profile regex: run as the profile will run it
        carried = [[m[1] for c in cells if (m := reads.search(c.url))] for cells in grid.lines]
        mine = carried[at]
        others = {v for i, cells in enumerate(carried) if i != at for v in cells}
        if mine and set(mine) == {value} and others and value not in others:
            return RoomId(value, regex)
    return None


def free_link(recording: Recording, grid: DayGrid) -> str | None:
    """The CSS of a link like the one the operator opened the booking form from: one whose
    address has that link's path as the grid's cells write it («edit_entry.php?»), which
    a booked cell's link to its booking («view_entry.php?id=6») has not. None where no
    cell links to the form's page, or the form is the day's own page."""
    day, book = recording.step("day"), recording.step("book")
    opened = next((a for a in book.actions if a.kind == "navigate"), None) if book else None
    if day is None or opened is None:
        return None
    path = urlsplit(opened.url).path
    if path == urlsplit(day.url).path:
        return None  # the same page with other values: its path tells nothing
    for cell in (cell for cells in grid.lines for cell in cells if cell.url):
        if urlsplit(urljoin(day.url, cell.url)).path == path:
            written = urlsplit(cell.url)
            if written.path.strip("/"):
                return f"a[href*={json.dumps(written.path + ('?' if written.query else ''))}]"
    return None


def _date_shown(step: Step, grid: DayGrid, day: date) -> dict[str, str] | None:
    """Where the page writes the day in a known format: the table's caption, else the
    element of the page with the shortest text that is the day (the innermost of those
    alike: a heading, not the block around it)."""
    shown = next((f for f in DATE_FORMATS if parse_date(grid.table.caption, f) == day), None)
    if shown is not None:
        return {"css": "caption", "format": shown}
    written: list[tuple[PickedText, str]] = [
        (piece, fmt) for piece in step.pieces if (fmt := date_format(piece.text, day))
    ]
    if not written:
        return None
    shortest = min(len(piece.text) for piece, _ in written)
    piece, fmt = [w for w in written if len(w[0].text) == shortest][-1]
    return {"css": piece.css, "format": fmt}


def draft_availability(recording: Recording) -> dict[str, Any]:
    """The ``availability`` part from the day's page: its address with the day and the
    building as variables (``catalogue.building_address``), and its grid (``day_grid``):
    a slot is timed by the time heading its column or row and lasts one step; a free
    slot is a cell holding a link like the one the operator opened the form from
    (``free_link``); a room's number read so that it gives the room the operator named
    (``room_title``), its floor and seats from its heading, its id (``room_id``) from the
    links of its free cells; the day, where the page writes it (``_date_shown``)."""
    step = day_step(recording)
    grid = day_grid(step.snapshot)
    if grid is None or not grid.titles:
        raise DraftError(
            "На странице дня не видно таблицы аудиторий и времени: откройте её ещё раз"
        )
    book = recording.step("book")
    named_room = book.answers.get("room", "") if book else ""
    at = grid.line_of(named_room) if named_room else None
    shown = grid.titles[at if at is not None else 0]
    title = room_title(step.titles, shown, named_room) if named_room else None
    room = room_picks(title.text if title else shown)
    if title is not None:
        room["number"] = title.number
        if title.left_out is not None:
            room |= _glued_picks(title.left_out)
    free = free_link(recording, grid)
    site_id = room_id(recording)
    if site_id is not None:  # only free slots link to the form: the first that carries it
        room["id"] = {"of": "cells", "css": f"{free or 'a'}@href", "regex": site_id.regex}
    # The table by its name without what changes with the day and the building, else by
    # the CSS that finds it alone, then by its role (the page's first table).
    stem = re.split(r"[:,(]", grid.table.name, maxsplit=1)[0].strip()
    found: list[dict[str, Any]] = [{"role": "table", "name": stem, "exact": False}] if stem else []
    if title is not None and title.table:
        found.append({"css": title.table})
    drafted: dict[str, Any] = {
        "table": found + ([] if stem else [{"role": "table"}]),
        "rooms_in": grid.rooms_in,
        "header_lines": 1,
        "room": room,
        "slot": {
            "time": {"of": "header", "format": "hhmm"},
            "free": {"has": free or "a[href]"},
        },
    }
    day = date.fromisoformat(step.answers["date"])
    if (shown_day := _date_shown(step, grid, day)) is not None:
        # The grid says its day: one of another day is not taken for it.
        drafted["caption_date"] = shown_day
    return {
        "open": {"url": building_address(recording, step.url, step.answers)},
        "grid": drafted,
    }
