"""«My bookings» and a booking's own page, by the profile; cancelling from the list."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from playwright.async_api import Dialog, Locator, Page

from adapters.profile.model import BookingPage, MyBookings
from adapters.profile.navigate import Navigator
from adapters.profile.reading import (
    Item,
    Table,
    as_date,
    as_span,
    holds,
    probes_of,
    read_table,
    read_terms,
    value,
)
from core.booking.errors import UnexpectedPage
from core.booking.models import Booking
from core.browser.retry import Transient
from core.browser.summary import summarize

__all__ = ["MyList", "read_booking_page"]


class MyList:
    """«My bookings» as shown on the page: its table and the booking in each row."""

    def __init__(self, nav: Navigator, page: Page) -> None:
        self._nav = nav
        self._page = page
        self._table: Table | None = None
        self._located: Locator | None = None

    @property
    def spec(self) -> MyBookings:
        return self._nav.profile.my_bookings

    async def open(self) -> None:
        await self._nav.open(self._page, self.spec.open, {}, path="my_bookings.open")
        await self.read()

    async def read(self) -> None:
        """Read the table on the page now (``ProfileMismatch`` when there is none)."""
        spec = self.spec
        self._located = await self._nav.finder.first(
            self._page, spec.table, path="my_bookings.table", what="таблицы «мои брони»"
        )
        picks = (spec.number, spec.building, spec.room, spec.date, spec.time, spec.purpose)
        self._table = await read_table(self._located, line_probes=probes_of(picks))

    def _rows(self) -> list[tuple[int, Item, list[Item]]]:
        table = self._table
        if table is None or not table.grid:
            return []
        return [(r, table.lines[r], table.row(r)) for r in range(1, len(table.lines))]

    def _columns(self) -> list[str]:
        table = self._table
        if table is None or not table.grid:
            return []
        return [cell.text for cell in table.row(0)]

    def numbers(self) -> dict[str, int]:
        """Booking number → its row's index in the table."""
        columns = self._columns()
        found = {}
        for r, line, cells in self._rows():
            number = value(self.spec.number, line, columns=columns, row=cells)
            if number:
                found[number] = r
        return found

    async def bookings(self) -> list[tuple[Booking, bool]]:
        """The listed bookings (buildings by the name shown), each with whether its room or
        building is still to be read from its own page (the list has no column for it).
        A row of one cell («Нет броней») or with no number is not a booking."""
        spec, columns = self.spec, self._columns()
        found = []
        for r, line, cells in self._rows():
            if len({id(cell) for cell in cells}) < 2:
                continue
            read = {
                name: value(p, line, columns=columns, row=cells) if p is not None else ""
                for name, p in (
                    ("number", spec.number), ("building", spec.building), ("room", spec.room),
                    ("date", spec.date), ("time", spec.time), ("purpose", spec.purpose),
                )
            }  # fmt: skip
            number = read["number"]
            if not number:
                continue
            day = as_date(spec.date, read["date"])
            span = as_span(spec.time, read["time"])
            if day is None or span is None or span[1] is None:
                part = "date" if day is None else "time"
                raise await self._nav.finder.mismatch(
                    self._page, spec.table, path=f"my_bookings.{part}",
                    what=f"даты и времени в строке {r} «моих броней»: {line.text[:80]}",
                )  # fmt: skip
            name = read["building"]
            room = read["room"]
            found.append(
                (
                    Booking(
                        number=number,
                        building=name,
                        building_name=name,
                        room=room,
                        room_id="",  # the list does not say the site's id of the room
                        day=day,
                        start=span[0],
                        end=span[1],
                        purpose=read["purpose"],
                        status="active",
                    ),
                    spec.room is None or spec.building is None,
                )
            )
        return found

    async def cancel(self, number: str) -> str | None:
        """Press the cancel control in the row of ``number`` and confirm; the question
        asked, or None when the row is not listed. ``Transient`` if it is still listed."""
        row_index = self.numbers().get(number)
        if row_index is None or self._located is None:
            return None
        nav, page = self._nav, self._page
        cancel = nav.profile.cancel
        # The very row the reader numbered (``table.rows``: thead, tbodies, tfoot), marked:
        # counting «tr» elements would also count a nested table's rows.
        mark = secrets.token_hex(4)
        await self._located.evaluate(
            "(table, [index, mark]) => table.rows[index].setAttribute('data-clubman-row', mark)",
            [row_index, mark],
        )
        row = self._located.locator(f"tr[data-clubman-row='{mark}']")
        control = await nav.finder.first(
            page, cancel.control, path="cancel.control", what="кнопки отмены", scope=row
        )
        asked: list[str] = []

        async def accept(dialog: Dialog) -> None:
            asked.append(dialog.message)
            await dialog.accept()

        if cancel.confirm == "native":
            page.on("dialog", accept)
        try:
            if isinstance(cancel.confirm, tuple):
                await control.click()
                await nav.click_and_wait(
                    page, cancel.confirm, path="cancel.confirm", what="подтверждения отмены"
                )
            else:
                async with page.expect_navigation() as navigation:
                    await control.click()
                nav.land(page, await navigation.value)
        finally:
            if cancel.confirm == "native":
                page.remove_listener("dialog", accept)
        await self.open()
        if number in self.numbers():
            raise Transient(f"booking {number} is still listed after cancelling ({asked})")
        return asked[0] if asked else ""


async def read_booking_page(
    nav: Navigator, page: Page, number: str, codes: Mapping[str, str], *, load: bool = True
) -> Booking:
    """Booking ``number`` from its own page (loaded first unless ``load`` is False)."""
    spec: BookingPage = nav.profile.booking_page
    if load:
        await nav.goto(page, nav.url(spec.url, {"number": number}))
    picks = (spec.number, spec.building, spec.room, spec.date, spec.time, spec.purpose)
    terms = await read_terms(
        page,
        probes=probes_of(picks),
        has=[spec.cancelled.has] if spec.cancelled and spec.cancelled.has else [],
    )
    shown = {
        name: value(p, terms.self, terms=terms.pairs)
        for name, p in zip(
            ("number", "building", "room", "date", "time", "purpose"), picks, strict=True
        )
    }
    day = as_date(spec.date, shown["date"])
    span = as_span(spec.time, shown["time"])
    if shown["number"] != number or day is None or span is None or span[1] is None:
        raise UnexpectedPage(f"Не удалось прочитать бронь № {number}", await summarize(page))
    name = shown["building"]
    building = codes.get(name, name)
    cancelled = spec.cancelled is not None and holds(spec.cancelled, terms.self)
    return Booking(
        number=number,
        building=building,
        building_name=name,
        room=shown["room"],
        room_id="",
        day=day,
        start=span[0],
        end=span[1],
        purpose=shown["purpose"],
        status="cancelled" if cancelled else "active",
    )
