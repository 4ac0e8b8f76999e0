"""What a row (or an item) of «my bookings» shows, by the profile's picks: read the same
whether the list was read on the page (``bookings.MyList``) or from its HTML
(``listhtml``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.profile.model import MyBookings
from adapters.profile.parts import Pick
from adapters.profile.reading import Item, Table, as_date, as_span, value
from scenarios.booking.models import Booking

__all__ = ["Shown", "columns_of", "list_picks", "rows_of", "shown_in_row"]


def list_picks(spec: MyBookings) -> tuple[Pick | None, ...]:
    """Every pick a row of the list is read by."""
    return (spec.number, spec.building, spec.room, spec.date, spec.time, spec.purpose)


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
    spec: MyBookings, line: Item, cells: Sequence[Item], columns: Sequence[str]
) -> Shown:
    read = {
        name: value(p, line, columns=columns, row=cells) if p is not None else ""
        for name, p in (
            ("building", spec.building), ("room", spec.room),
            ("date", spec.date), ("time", spec.time), ("purpose", spec.purpose),
        )
    }  # fmt: skip
    partial = spec.room is None or spec.building is None
    day = as_date(spec.date, read["date"])
    span = as_span(spec.time, read["time"])
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
