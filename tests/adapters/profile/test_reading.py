"""Reading times and grids without a browser: what a page's text says is read as the
page means it, and a grid's spans cover what they span."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest

from adapters.profile.grid import _CONTROL, _lines, _rooms
from adapters.profile.model import Grid, RoomPicks, Slot
from adapters.profile.parts import Cond, Locator, Pick
from adapters.profile.reading import Item, Table, as_span

SPAN = Pick(format="span")


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Аудитория 2.14, 08:00–08:30, свободно", (time(8, 0), time(8, 30))),  # a room «2.14»
        ("пт 27.11, 08:00–08:30", (time(8, 0), time(8, 30))),  # a date before the times
        ("12.11, 18:00 - 20:00", (time(18, 0), time(20, 0))),
        ("18.00-19.30", (time(18, 0), time(19, 30))),  # dots only
        ("6:00 PM - 8:00 PM", (time(18, 0), time(20, 0))),
        ("18:00 → 20:00", (time(18, 0), time(20, 0))),
        ("22:00–24:00", (time(22, 0), time(23, 59))),
        ("20:00–18:00", None),  # an end before its start is no span
        # a block of a <select>'s options is no span (once read as 08:00–08:30)
        ("08:00 08:30 09:00 09:30 10:00 10:30", None),
        ("Начало 10:00 Окончание 11:00 Создано 12:34", None),
        ("весь день", None),
    ],
)
def test_a_span_is_read_as_written(text: str, span: tuple[time, time] | None) -> None:
    assert as_span(SPAN, text) == span


def _item(text: str, *, link: bool = False) -> Item:
    return Item(text=text, has={"a[href]": link})


def _grid(rooms_in: str) -> Grid:
    return Grid(
        table=(Locator(css="table"),),
        rooms_in=rooms_in,
        room=RoomPicks(number=Pick(regex=r"^(\S+)")),
        slot=Slot(
            time=Pick(of="header", format="hhmm"),
            free=Cond(has="a[href]"),
            mine=Cond(text="ваша"),
        ),
    )


def test_times_down_with_a_booking_spanning_three_rows() -> None:
    # rows: 18:00, 18:30, 19:00, 19:30; rooms 301, 302; 302 is busy 18:30–20:00 in one cell
    corner, r301, r302 = _item(""), _item("301"), _item("302")
    heads = [_item(t) for t in ("18:00", "18:30", "19:00", "19:30")]
    free = [_item("+", link=True) for _ in range(5)]
    busy = _item("Ваша бронь")
    cells = [corner, r301, r302, heads[0], free[0], free[1], heads[1], free[2], busy,
             heads[2], free[3], heads[3], free[4]]  # fmt: skip
    at = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2),
          (3, 0), (3, 1), (4, 0), (4, 1)]  # fmt: skip
    grid: list[list[int | None]] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 8], [11, 12, 8]]
    table = Table(grid=grid, cells=cells, at=at, lines=[Item()] * 5, self=Item())
    rooms, opens, closes, unreadable, _ = _read(table, _grid("columns"), building="1", step=30)
    assert [r.room.number for r in rooms] == ["301", "302"]
    assert rooms[0].busy == [] and rooms[1].busy == [(time(18, 30), time(20, 0))]
    assert rooms[1].mine == [(time(18, 30), time(20, 0))]
    assert (opens, closes, unreadable) == (time(18, 0), time(20, 0), 0)


def test_an_hour_heading_over_two_half_hour_columns_times_each_column() -> None:
    # header: Аудитория | 08:00 (colspan 2); room 101: 08:00 free, 08:30 busy
    cells = [_item("Аудитория"), _item("08:00"), _item("101"), _item("+", link=True),
             _item("занято")]  # fmt: skip
    table = Table(
        grid=[[0, 1, 1], [2, 3, 4]],
        cells=cells,
        at=[(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)],
        lines=[Item(), Item()],
        self=Item(),
    )
    rooms, _, closes, _, _ = _read(table, _grid("rows"), building="main", step=30)
    assert rooms[0].busy == [(time(8, 30), time(9, 0))] and closes == time(9, 0)


def test_a_busy_cell_without_a_readable_time_is_counted_not_taken_for_free() -> None:
    cells = [_item("Аудитория"), _item("??"), _item("101"), _item("занято")]
    table = Table(
        grid=[[0, 1], [2, 3]],
        cells=cells,
        at=[(0, 0), (0, 1), (1, 0), (1, 1)],
        lines=[Item(), Item()],
        self=Item(),
    )
    rooms, _, _, unreadable, _ = _read(table, _grid("rows"), building="main", step=30)
    assert unreadable == 1 and rooms == []  # no room with no readable time, and it is said


def test_a_short_row_leaves_a_gap_not_a_crash() -> None:
    cells = [_item("Аудитория"), _item("08:00"), _item("08:30"), _item("101"),
             _item("+", link=True)]  # fmt: skip
    table = Table(
        grid=[[0, 1, 2], [3, 4, None]],
        cells=cells,
        at=[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)],
        lines=[Item(), Item()],
        self=Item(),
    )
    rooms, _, _, unreadable, _ = _read(table, _grid("rows"), building="main", step=30)
    assert [r.room.number for r in rooms] == ["101"] and rooms[0].busy == [] and not unreadable
    assert table.row(1)[2] == Item()


def _kind(text: str, cls: str, *, control: bool = False) -> Item:
    has = {"a[href]": False, _CONTROL: control}
    return Item(text=text, title=text, probes={"@class": cls}, has=has)


def _read(table: Table, grid: Grid, *, building: str, step: int) -> tuple[Any, ...]:
    """A grid's rooms by its free test's first alternative."""
    return _rooms(_lines(table, grid), grid, grid.slot.free[0], building=building, step=step)


def _one_room(slots: list[Item]) -> Table:
    heads = [_item("Аудитория"), *(_item(t) for t in ("08:00", "08:30", "09:00"))]
    cells = [*heads, _item("101"), *slots]
    at = [(0, c) for c in range(4)] + [(1, c) for c in range(4)]
    return Table(
        grid=[[0, 1, 2, 3], [4, 5, 6, 7]], cells=cells, at=at, lines=[Item()] * 2, self=Item()
    )


def test_no_cell_free_and_all_alike_is_a_full_day() -> None:
    busy = [_kind("занято", "busy") for _ in range(3)]
    rooms, _, _, unreadable, kinds = _read(_one_room(busy), _grid("rows"), building="m", step=30)
    assert rooms[0].busy == [(time(8, 0), time(9, 30))] and not unreadable
    assert len(kinds) == 1  # a building busy all day: «nothing free» is what the site shows


def test_no_cell_free_by_the_profile_but_two_kinds_of_cell_is_not_a_full_day() -> None:
    # The free cells now hold a button, not a link: the profile calls every cell busy, but
    # the page draws two kinds of cell.
    slots = [
        _kind("занято", "busy"),
        _kind("+", "free", control=True),
        _kind("+", "free", control=True),
    ]
    _, _, _, _, kinds = _read(_one_room(slots), _grid("rows"), building="m", step=30)
    assert len(kinds) == 2


def test_with_a_cell_free_no_kinds_are_counted() -> None:
    slots = [_kind("занято", "busy"), _item("+", link=True), _kind("+", "free", control=True)]
    _, _, _, _, kinds = _read(_one_room(slots), _grid("rows"), building="m", step=30)
    assert kinds == set()
