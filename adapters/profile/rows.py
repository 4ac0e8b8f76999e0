"""What a row (or an item) of «my bookings» shows, by the profile's picks: read the same
whether the list was read on the page (``bookings.MyList``) or from its HTML
(``listhtml``). Each pick's alternative is chosen once for the whole list
(``adapters.profile.choosing``): the first that reads in some row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.profile.choosing import StandIns, chosen
from adapters.profile.model import MyBookings
from adapters.profile.parts import Pick
from adapters.profile.reading import Item, Table, as_date, as_span, value
from scenarios.booking.models import Booking

__all__ = ["RowPicks", "Shown", "columns_of", "list_picks", "row_picks", "rows_of", "shown_in_row"]

_FIELDS = ("number", "building", "room", "date", "time", "purpose")


def list_picks(spec: MyBookings) -> tuple[Pick, ...]:
    """Every pick a row of the list may be read by, every alternative of each."""
    return tuple(p for name in _FIELDS for p in getattr(spec, name) or ())


@dataclass(frozen=True, slots=True)
class RowPicks:
    """The alternative of each of the list's picks its rows are read by."""

    number: Pick
    building: Pick | None
    room: Pick | None
    date: Pick
    time: Pick
    purpose: Pick


def _reads(name: str, pick: Pick, rows: Sequence[tuple[Item, Sequence[Item]]],
           columns: Sequence[str]) -> bool:  # fmt: skip
    """Whether ``pick`` reads field ``name`` in some row: a value at all, a date or a
    span that parses. A number shown only at the address a click leads to is taken as
    written (a click per booking is not tried per alternative)."""
    if pick.of == "address":
        return True
    for line, cells in rows:
        text = value(pick, line, columns=columns, row=cells)
        if name == "date" and as_date(pick, text) is None:
            continue
        if name == "time" and ((span := as_span(pick, text)) is None or span[1] is None):
            continue
        if text:
            return True
    return False


def row_picks(
    spec: MyBookings,
    rows: Sequence[tuple[Item, Sequence[Item]]],
    columns: Sequence[str],
    *,
    told: StandIns,
) -> RowPicks:
    """Each pick's first alternative that reads in ``rows`` (a later one told to
    ``told`` as a stand-in); none reading (no rows: nothing to tell), the first."""

    def pick(name: str) -> Pick | None:
        alternatives = getattr(spec, name)
        if alternatives is None:
            return None
        return chosen(alternatives, lambda p: _reads(name, p, rows, columns),
                      path=f"my_bookings.{name}", told=told)  # fmt: skip

    picked = {name: pick(name) for name in _FIELDS}
    number, day, span, purpose = (picked[n] for n in ("number", "date", "time", "purpose"))
    assert number is not None and day is not None and span is not None and purpose is not None
    return RowPicks(number, picked["building"], picked["room"], day, span, purpose)


def rows_of(table: Table) -> list[tuple[int, Item, list[Item]]]:
    """The table's rows under its head: index, the row itself, its cells by column."""
    if not table.grid:
        return []
    return [(r, table.lines[r], table.row(r)) for r in range(1, len(table.lines))]


def columns_of(table: Table) -> list[str]:
    """The titles of the table's columns (its first row)."""
    return [cell.text for cell in table.row(0)] if table.grid else []


@dataclass(frozen=True, slots=True)
class Shown:
    """A row's booking, its number still to be read (``booking.number`` is ''); or, with
    ``booking`` None, the part that could not be read (``unread``: date or time)."""

    booking: Booking | None
    unread: str = ""
    # The list has no column for its room or building: read them from its own page.
    partial: bool = False


def shown_in_row(
    picks: RowPicks, line: Item, cells: Sequence[Item], columns: Sequence[str]
) -> Shown:
    read = {
        name: value(p, line, columns=columns, row=cells) if p is not None else ""
        for name, p in (
            ("building", picks.building), ("room", picks.room),
            ("date", picks.date), ("time", picks.time), ("purpose", picks.purpose),
        )
    }  # fmt: skip
    partial = picks.room is None or picks.building is None
    day = as_date(picks.date, read["date"])
    span = as_span(picks.time, read["time"])
    if day is None or span is None or span[1] is None:
        return Shown(None, unread="date" if day is None else "time", partial=partial)
    booking = Booking(
        number="",
        building=read["building"],
        building_name=read["building"],
        room=read["room"],
        room_id="",  # the list does not say the site's id of the room
        day=day,
        start=span[0],
        end=span[1],
        purpose=read["purpose"],
        status="active",
    )
    return Shown(booking, partial=partial)
