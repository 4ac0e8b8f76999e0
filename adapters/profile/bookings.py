"""«My bookings» and a booking's own page, by the profile; cancelling from the list."""

from __future__ import annotations

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
        return [
            (r, table.lines[r], [table.cells[i] for i in table.grid[r]])
            for r in range(1, len(table.grid))
        ]

    def _columns(self) -> list[str]:
        table = self._table
        if table is None or not table.grid:
            return []
        return [table.cells[i].text for i in table.grid[0]]

    def numbers(self) -> dict[str, int]:
        """Booking number → its row's index in the table."""
        columns = self._columns()
        found = {}
        for r, line, cells in self._rows():
            number = value(self.spec.number, line, columns=columns, row=cells)
            if number:
                found[number] = r
        return found

    def bookings(self, codes: Mapping[str, str]) -> list[tuple[Booking, bool]]:
        """The listed bookings, each with whether its room or building is still to be read
        from its own page (the list has no column for it)."""
        spec, columns = self.spec, self._columns()
        found = []
        for _, line, cells in self._rows():
            read = {
                name: value(p, line, columns=columns, row=cells) if p is not None else ""
                for name, p in (
                    ("number", spec.number), ("building", spec.building), ("room", spec.room),
                    ("date", spec.date), ("time", spec.time), ("purpose", spec.purpose),
                )
            }  # fmt: skip
            number = read["number"]
            day = as_date(spec.date, read["date"])
            span = as_span(spec.time, read["time"])
            if not number or day is None or span is None or span[1] is None:
                raise Transient(f"a row of «my bookings» is not readable: {line.text[:120]}")
            name = read["building"]
            building = codes.get(name, name)
            room = read["room"]
            found.append(
                (
                    Booking(
                        number=number,
                        building=building,
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
        row = self._located.locator("tr").nth(row_index)
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
