"""What a row (or an item) of «my bookings» shows, by the profile's picks: read the same
whether the list was read on the page (``bookings.MyList``) or from its HTML
(``listhtml``). Each pick's alternative is chosen once for the whole list
(``adapters.profile.choosing``): the first that reads in some row.

A row may lack what the list does not show (its building, room or end: ``Shown.missing``,
read from the booking's own page) and a row may not read at all (a booking made by hand
on the site in a form of its own): the caller skips it and reports it, unless no row of
the list reads, which is the site changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.profile.choosing import StandIns, chosen
from adapters.profile.model import MyBookings
from adapters.profile.parts import Pick
from adapters.profile.reading import Item, Table, as_date, as_span, as_time, value
from scenarios.booking.models import Booking

__all__ = ["RowPicks", "Shown", "columns_of", "list_picks", "row_picks", "rows_of", "shown_in_row"]

_FIELDS = ("number", "building", "room", "date", "time", "start", "end", "purpose", "owner")


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
    time: Pick | None  # a span; else ``start`` (and ``end``, where the list shows it)
    start: Pick | None
    end: Pick | None
    purpose: Pick
    owner: Pick | None  # who made the booking (``adapters.profile.owner``)


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
        if name in ("start", "end") and as_time(pick, text) is None:
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
    number, day, purpose = (picked[n] for n in ("number", "date", "purpose"))
    assert number is not None and day is not None and purpose is not None
    return RowPicks(
        number=number,
        building=picked["building"],
        room=picked["room"],
        date=day,
        time=picked["time"],
        start=picked["start"],
        end=picked["end"],
        purpose=purpose,
        owner=picked["owner"],
    )


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
    ``booking`` None, the part that could not be read (``unread``: date, time, start or
    end)."""

    booking: Booking | None
    unread: str = ""
    # What the list does not show (building, room, end): read from the booking's own
    # page. A missing end stands as the start in ``booking`` until then.
    missing: frozenset[str] = frozenset()

    @property
    def partial(self) -> bool:
        return bool(self.missing)


def shown_in_row(
    picks: RowPicks, line: Item, cells: Sequence[Item], columns: Sequence[str]
) -> Shown:
    def read(pick: Pick | None) -> str:
        return value(pick, line, columns=columns, row=cells) if pick is not None else ""

    missing = frozenset(
        name for name, pick in (("building", picks.building), ("room", picks.room)) if pick is None
    )
    day = as_date(picks.date, read(picks.date))
    if day is None:
        return Shown(None, unread="date", missing=missing)
    if picks.time is not None:
        span = as_span(picks.time, read(picks.time))
        if span is None or span[1] is None:
            return Shown(None, unread="time", missing=missing)
        start, end = span
    else:
        assert picks.start is not None  # the model takes «time» or «start»
        start_read = as_time(picks.start, read(picks.start))
        if start_read is None:
            return Shown(None, unread="start", missing=missing)
        start = start_read
        if picks.end is None:
            end, missing = start, missing | {"end"}
        elif (read_end := as_time(picks.end, read(picks.end))) is None or read_end <= start:
            return Shown(None, unread="end", missing=missing)
        else:
            end = read_end
    building = read(picks.building)
    booking = Booking(
        number="",
        building=building,
        building_name=building,
        room=read(picks.room),
        room_id="",  # the list does not say the site's id of the room
        day=day,
        start=start,
        end=end,
        purpose=read(picks.purpose),
        status="active",
    )
    return Shown(booking, missing=missing)
