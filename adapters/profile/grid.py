"""The catalogue's buildings and one building's day, read by the profile.

A grid is a table of rooms and times (``Grid``): each room's line has a header cell
(its number, floor, capacity) and one cell per time step, or one cell spanning several
steps. Cells are read with their spans resolved, so a busy booking drawn as one cell
over three rows is busy in all three.
"""

from __future__ import annotations

import json
from datetime import date, time
from typing import NamedTuple

from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from adapters.profile.choosing import chosen
from adapters.profile.model import Buildings, Grid
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Cond, Pick
from adapters.profile.reading import (
    DESCRIBE_JS,
    Item,
    Table,
    as_date,
    as_span,
    holds,
    probes_of,
    read_items,
    read_table,
    room_of,
    value,
)
from adapters.profile.timeline import read_timeline
from core.browser.retry import Bounced, Transient
from core.browser.summary import summarize
from core.site.errors import UnexpectedPage
from core.site.models import Building, Catalogue, Interval, Room, Rules, merge_intervals
from scenarios.booking.errors import BookingRejected
from scenarios.booking.models import Availability, RoomAvailability

__all__ = [
    "GridReads",
    "Misread",
    "building_code",
    "day_of",
    "grid_reads",
    "listed_code",
    "read_buildings",
    "read_catalogue",
    "read_day",
    "read_page",
]

_READ_OPTIONS = (
    """(select) => Array.from(select.options).map((o) => [o.value, o.textContent.trim()])"""
)


async def read_buildings(nav: Navigator, page: Page) -> dict[str, str]:
    """Building code → name, as the profile's page lists them."""
    how: Buildings = nav.profile.catalogue.buildings
    await nav.open(page, how.open, {}, path="catalogue.buildings.open")
    finder = nav.finder
    if how.select is not None:
        select = await finder.first(
            page, how.select, path="catalogue.buildings.select", what="списка корпусов"
        )
        pairs: list[list[str]] = await select.evaluate(_READ_OPTIONS)
        return {code: name for code, name in pairs if code}
    assert how.items is not None and how.code is not None and how.name is not None
    every = await finder.every(page, how.items, path="catalogue.buildings.items", what="корпусов")
    items = await read_items(every, probes=probes_of([how.code, how.name]))
    named = ((value(how.code, item), value(how.name, item)) for item in items)
    return {code: name for code, name in named if code and name}


async def read_catalogue(
    nav: Navigator, page: Page, names: dict[str, str], *, day: date, timeout_ms: float
) -> Catalogue:
    """The buildings (code → name) with the profile's words for them, their rooms from
    the grids of ``day``, and the profile's rules."""
    words = nav.profile.catalogue.words
    buildings = tuple(
        Building(
            code=code,
            name=words[code].name or name,
            name_en=words[code].name_en,
            words=_normal(words[code].words),
        )
        if code in words
        else Building(code=code, name=name)
        for code, name in names.items()
    )
    rooms: list[Room] = []
    for building in buildings:
        shown = await read_day(
            nav, page, building=building.code, name=building.name, day=day, timeout_ms=timeout_ms
        )
        rooms += [slot.room for slot in shown.rooms]
    stated = nav.profile.rules
    rules = Rules(**{**stated.model_dump(), "longest_minutes": stated.longest})
    return Catalogue(system="profile", buildings=buildings, rooms=tuple(rooms), rules=rules)


def _normal(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(" ".join(word.lower().replace("ё", "е").split()) for word in words)


async def read_day(
    nav: Navigator, page: Page, *, building: str, name: str, day: date, timeout_ms: float
) -> Availability:
    """Open ``building`` on ``day`` and read its grid (``Bounced`` when the site wants a
    login, ``Transient`` when it failed to show the grid)."""
    spec = nav.profile.availability
    await nav.open(page, spec.open, {"building": building, "date": day}, path="availability.open")
    if spec.timeline is not None:
        return await read_timeline(nav, page, spec.timeline, building=building, name=name, day=day)
    grid = spec.grid
    assert grid is not None  # the model takes one of the two
    finder = nav.finder
    shown = finder.any_of(page, grid.table)
    waiting = shown.or_(finder.any_of(page, nav.profile.login.password))
    if grid.failed is not None:
        waiting = waiting.or_(finder.any_of(page, grid.failed))
    table_path = "availability.grid.table"
    try:
        await waiting.first.wait_for(timeout=timeout_ms)
    except PlaywrightTimeoutError:
        if nav.on_login_page(page):
            raise Bounced() from None
        # Nothing showed: the LLM's pick (the day's read below is its check: a day it
        # cannot read is the site changed), else the profile's line.
        what = "таблицы занятости"
        picked = await finder.picked(page, grid.table, path=table_path, what=what)
        if picked is None:
            raise await finder.mismatch(page, grid.table, path=table_path, what=what) from None
        found = picked
    else:
        if nav.on_login_page(page):
            raise Bounced()
        shown_now = await finder.maybe(page, grid.table, path=table_path)
        if shown_now is None:
            if grid.failed is not None and await finder.maybe(
                page, grid.failed, path="availability.grid.failed"
            ):
                raise Transient("the availability grid did not load")
            raise Bounced()  # the login form is shown in place
        found = shown_now
    reads = grid_reads(grid)
    table = await read_table(
        found,
        probes=reads.probes,
        has=reads.has,
        line_probes=reads.line_probes,
        self_probes=reads.self_probes,
    )
    caption = grid.caption_date
    heading = Item()  # the page's probes: a caption not in the table is looked for there
    if caption is not None and caption.css and not value(caption, table.self):
        heading = await read_page(page, reads.page_probes)
    read = day_of(nav, table, building=building, name=name, day=day, page=heading)
    if isinstance(read, Availability):
        return read
    if read.unreadable:  # a busy cell whose time cannot be read must not pass as free
        raise await finder.mismatch(
            page, grid.table, path="availability.grid.slot.time",
            what=f"времени в {read.unreadable} занятых ячейках сетки",
        )  # fmt: skip
    if read.kinds:  # «nothing free» would be a guess: the free cells no longer match
        raise await finder.mismatch(
            page, grid.table, path="availability.grid.slot.free",
            what=f"отметки свободных ячеек: в сетке ячейки {read.kinds} видов, и профиль "
            "считает занятыми все",
        )  # fmt: skip
    raise UnexpectedPage(f"Сетка показывает другой день: {read.day_shown}", await summarize(page))


class GridReads(NamedTuple):
    """What a grid's table is read with: its cells' probes and tests, its lines' and its
    own (the caption's date), and the page's (the caption's date outside the table)."""

    probes: list[str]
    has: list[str]
    line_probes: list[str]
    self_probes: list[str]
    page_probes: list[str]


# What tells one busy cell from another when the profile's free test matches none: the
# cell's class, and whether it holds a control (a link, a button) a person could press.
_CLASS = "@class"
_CONTROL = "a[href], button, input[type=submit], input[type=button], [role=button], [role=link]"


def grid_reads(grid: Grid) -> GridReads:
    slot, room = grid.slot, grid.room
    return GridReads(
        probes=[*probes_of([room.number, room.id, room.floor, room.capacity, slot.time]), _CLASS],
        has=sorted(
            {c.has for c in (*slot.free, slot.mine) if c is not None and c.has} | {_CONTROL}
        ),
        line_probes=probes_of([room.id]),
        self_probes=probes_of([grid.caption_date]),
        page_probes=probes_of([grid.caption_date]),
    )


# The page's own probes (``querySelector`` on the whole document): a heading outside the
# table. Only the probes, not the page's text.
_READ_PAGE = (
    "(probes) => {"
    + DESCRIBE_JS
    + r"""
  const root = document.documentElement;
  return JSON.stringify(Object.fromEntries(probes.map((p) => [p, probe(root, p)])));
}"""
)


async def read_page(page: Page, probes: list[str]) -> Item:
    """The page's ``probes`` (none: nothing read, no round trip)."""
    if not probes:
        return Item()
    return Item(probes=json.loads(await page.evaluate(_READ_PAGE, probes)))


class Misread(NamedTuple):
    """A grid that is not the day asked for: the day its caption shows, how many busy
    cells have no time the profile can read, or — no cell free by the profile's test — how
    many kinds of cell it calls busy all the same (``kinds`` > 1: the free cells look
    different from the rest, and the test no longer finds them)."""

    day_shown: str = ""
    unreadable: int = 0
    kinds: int = 0


def day_of(
    nav: Navigator, table: Table, *, building: str, name: str, day: date, page: Item | None = None
) -> Availability | Misread:
    """The day a grid's table shows (``grid_reads`` read it, the page's probes in
    ``page``), wherever it was read."""
    grid = nav.profile.availability.grid
    assert grid is not None
    if grid.caption_date is not None:
        caption = _caption(grid.caption_date, table.self, page or Item())
        shown_day = as_date(grid.caption_date, caption)
        if shown_day != day:
            return Misread(day_shown=str(shown_day or caption[:80] or table.self.text[:80]))
    step = nav.profile.rules.step_minutes
    lines = _lines(table, grid)
    # The free test that finds a free cell (none does, in a building busy all day: the
    # first, and the kinds of busy cells below tell whether it still fits).
    free = chosen(grid.slot.free, lambda cond: any(
        holds(cond, slot.cell) for _, _, slots in lines for slot in slots
    ), path="availability.grid.slot.free", told=nav.finder)  # fmt: skip
    rooms, opens, closes, unreadable, kinds = _rooms(
        lines, grid, free, building=building, step=step
    )
    if unreadable:
        return Misread(unreadable=unreadable)
    if len(kinds) > 1:
        # A building busy all day is read as it is only when all its busy cells look
        # alike; cells of two kinds, none free, mean the free test no longer fits.
        return Misread(kinds=len(kinds))
    if opens >= closes:
        opens, closes = nav.profile.rules.opens, nav.profile.rules.closes
    return Availability(
        building=building, building_name=name, day=day, opens=opens, closes=closes, rooms=rooms
    )


def _caption(pick: Pick, table: Item, page: Item) -> str:
    """The caption's text: in the table, else (its css found outside it) on the page."""
    return value(pick, table) or (value(pick, page) if pick.css else "")


class _Slot(NamedTuple):
    cell: Item
    head: Item | None  # the time heading over it (a row's or a column's)
    steps_in: int  # how many steps into its heading's span it lies (a heading over two)


def _slot(table: Table, index: int, head: int | None, steps_in: int) -> _Slot:
    return _Slot(table.cells[index], table.cells[head] if head is not None else None, steps_in)


def _lines(table: Table, grid: Grid) -> list[tuple[Item, Item, list[_Slot]]]:
    """Per room: its header cell, its line, and its slots."""
    head = grid.header_lines - 1
    found = []
    if grid.rooms_in == "rows":
        for r in range(grid.header_lines, len(table.grid)):
            header = table.cell(r, 0)
            if header is None:
                continue
            slots = []
            for c, index in enumerate(table.grid[r]):
                if c == 0 or index is None:
                    continue
                over = table.index(head, c) if head >= 0 else None
                steps_in = c - table.at[over][1] if over is not None else 0
                slots.append(_slot(table, index, over, steps_in))
            found.append((header, table.lines[r], slots))
        return found
    width = max((len(row) for row in table.grid), default=0)
    for c in range(1, width):
        header = table.cell(max(head, 0), c)
        if header is None:
            continue
        slots = []
        for r in range(grid.header_lines, len(table.grid)):
            index, over = table.index(r, c), table.index(r, 0)
            if index is not None:
                steps_in = r - table.at[over][0] if over is not None else 0
                slots.append(_slot(table, index, over, steps_in))
        found.append((header, header, slots))
    return found


def _later(start: time, minutes: int) -> time:
    seconds = start.hour * 3600 + start.minute * 60 + start.second + minutes * 60
    if seconds >= 24 * 3600:
        return time(23, 59)
    return time(seconds // 3600, seconds // 60 % 60, seconds % 60, start.microsecond)


def _times(when: Pick, source: Item, *, steps_in: int | None, step: int) -> Interval | None:
    """A slot's start and end, read from its own cell (``steps_in`` None), or from its
    time heading's and how many steps into that heading it lies."""
    span = as_span(when, value(when, source))
    if span is None:
        return None
    if steps_in is None:
        return span[0], span[1] if span[1] is not None else _later(span[0], step)
    start = _later(span[0], step * steps_in)
    return start, _later(start, step)


def _rooms(
    lines: list[tuple[Item, Item, list[_Slot]]],
    grid: Grid,
    free_test: Cond,
    *,
    building: str,
    step: int,
) -> tuple[list[RoomAvailability], time, time, int, set[tuple[str, bool]]]:
    """The rooms, the day's first and last time shown, how many busy cells had no
    readable time (the profile's time pick does not fit the page), and — when no cell is
    free — the kinds of cell called busy (class, holds a control); else no kinds."""
    picks, when = grid.room, grid.slot.time
    result = []
    unreadable = 0
    free_cells = 0
    kinds: set[tuple[str, bool]] = set()
    # A time heading is over every room's slot in its row: its times are read once (by
    # the item's id and the steps into it), and are the day's times read.
    read: dict[tuple[int, int], Interval | None] = {}
    for header, line, slots in lines:
        number = value(picks.number, header)
        if not number:
            continue
        busy: list[Interval] = []
        mine: list[Interval] = []
        readable = 0
        for slot in slots:
            source = slot.head if when.of == "header" and slot.head is not None else slot.cell
            steps_in = slot.steps_in if source is not slot.cell else None
            key = (id(source), -1 if steps_in is None else steps_in)
            if key not in read:
                read[key] = _times(when, source, steps_in=steps_in, step=step)
            times = read[key]
            free = holds(free_test, slot.cell)
            if times is None:
                unreadable += not free
                continue
            readable += 1
            if free:
                free_cells += 1
                continue
            busy.append(times)
            if grid.slot.mine is not None and holds(grid.slot.mine, slot.cell):
                mine.append(times)
            else:
                cell = slot.cell
                kinds.add(
                    (
                        " ".join((cell.probes.get(_CLASS) or "").split()),
                        cell.has.get(_CONTROL, False),
                    )
                )
        if not readable:
            continue  # a line with no time in it (a floor's heading) is not a room
        site_id = _room_id(picks.id, header, line, [slot.cell for slot in slots])
        room = room_of(picks, header, building=building, number=number, site_id=site_id)
        result.append(
            RoomAvailability(room=room, busy=merge_intervals(busy), mine=merge_intervals(mine))
        )
    shown = [times for times in read.values() if times is not None]
    opens = min((start for start, _ in shown), default=time(23, 59))
    closes = max((end for _, end in shown), default=time(0, 0))
    return result, opens, closes, unreadable, set() if free_cells else kinds


def _room_id(pick: Pick | None, header: Item, line: Item, cells: list[Item]) -> str:
    if pick is None:
        return ""
    if pick.of == "cells":
        return next((found for cell in cells if (found := value(pick, cell))), "")
    return value(pick, line if pick.of == "line" else header)


def listed_code(names: dict[str, str], building: str) -> str | None:
    """The code of ``building`` (a code or a name, any case) among ``names`` (code →
    name, as the site lists them), or None."""
    wanted = building.strip().lower()
    return next((c for c, n in names.items() if wanted in (c.lower(), n.lower())), None)


def building_code(names: dict[str, str], building: str) -> str:
    """``listed_code``, else ``BookingRejected`` naming the site's buildings."""
    code = listed_code(names, building)
    if code is None:
        raise BookingRejected(
            f"Корпус «{building}» не найден на сайте",
            code="unknown_building",
            hint="корпуса: " + ", ".join(names.values()),
        )
    return code
