"""«Мои брони»: the table of the user's active bookings and «Отменить» with its confirm()."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from playwright.async_api import Dialog, Locator, Page

from adapters.refportal.pages.base import land
from adapters.refportal.pages.common import parse_day, parse_span
from core.browser.retry import Transient
from core.browser.summary import summarize
from core.site.errors import UnexpectedPage
from scenarios.booking.models import Booking

__all__ = ["MY_PATH", "MyBookingsPage"]

MY_PATH = "/my"
TITLE = "Мои брони"
_COLUMNS = {
    "Номер": "number",
    "Корпус": "building",
    "Аудитория": "room",
    "Дата": "day",
    "Время": "time",
    "Цель": "purpose",
}
# The first matching table's cells, or no table at all: one round trip, no waiting,
# sent back as one JSON string (cheaper than Playwright's value serialisation).
_READ_TABLE = """
(tables) => JSON.stringify(tables.slice(0, 1).map((table) => Array.from(table.rows).map((row) =>
  Array.from(row.cells).map((cell) => cell.innerText.replace(/\\s+/g, " ").trim()))))
"""


class MyBookingsPage:
    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self._loaded: list[list[str]] | None = None  # the table as ``open``/``check`` read it

    def _table(self) -> Locator:
        return self.page.get_by_role("table", name=TITLE)

    async def open(self) -> None:
        """Load «Мои брони» and read its table (``UnexpectedPage`` if there is none)."""
        await land(self.page, await self.page.goto(f"{self.base_url}{MY_PATH}"))
        await self.check()

    async def check(self) -> None:
        """Read the table of the page shown now; ``UnexpectedPage`` if it is not «Мои брони»."""
        self._loaded = await self._read_table()
        if self._loaded is None:
            raise UnexpectedPage("Не открылась страница «Мои брони»", await summarize(self.page))

    async def _read_table(self) -> list[list[str]] | None:
        tables: list[list[list[str]]] = json.loads(await self._table().evaluate_all(_READ_TABLE))
        return tables[0] if tables else None

    async def _rows(self) -> list[list[str]]:
        """The rows read by the last ``open``/``check``, else read now."""
        if self._loaded is not None:
            return self._loaded
        await self.check()
        return self._loaded or []

    async def read(self, codes: Mapping[str, str]) -> list[Booking]:
        rows = await self._rows()
        if not rows:
            return []
        header = [_COLUMNS.get(title, "") for title in rows[0]]
        bookings = []
        for cells in rows[1:]:
            row: dict[str, Any] = dict(zip(header, cells, strict=False))
            span = parse_span(row.get("time", ""))
            day = parse_day(row.get("day", ""))
            if span is None or day is None or not row.get("number"):
                raise UnexpectedPage(
                    f"Не удалось прочитать строку: {cells}", await summarize(self.page)
                )
            name = row.get("building", "")
            building, room = codes.get(name, name), row.get("room", "")
            bookings.append(
                Booking(
                    number=row["number"],
                    building=building,
                    building_name=name,
                    room=room,
                    room_id=f"{building}-{room}",
                    day=day,
                    start=span[0],
                    end=span[1],
                    purpose=row.get("purpose", ""),
                    status="active",
                )
            )
        return bookings

    async def _row_index(self, number: str) -> int | None:
        rows = await self._rows()
        header = [_COLUMNS.get(title, "") for title in rows[0]] if rows else []
        column = header.index("number") if "number" in header else 0
        for index, cells in enumerate(rows[1:], start=1):
            if len(cells) > column and cells[column] == number:
                return index
        return None

    async def has(self, number: str) -> bool:
        return await self._row_index(number) is not None

    async def cancel(self, number: str) -> str | None:
        """Press «Отменить» in the row of booking ``number`` and accept the confirm() dialog.

        Returns the dialog's question, or None when no such row is listed. ``Transient``
        if the page after cancelling is not «Мои брони» without that row (cancelling again
        is safe).
        """
        index = await self._row_index(number)
        if index is None:
            return None
        asked: list[str] = []

        async def accept(dialog: Dialog) -> None:
            asked.append(dialog.message)
            await dialog.accept()

        row = self._table().get_by_role("row").nth(index)
        self.page.on("dialog", accept)
        try:
            async with self.page.expect_navigation() as navigation:
                await row.get_by_role("button", name="Отменить").click()
        finally:
            self.page.remove_listener("dialog", accept)
        await land(self.page, await navigation.value)
        self._loaded = await self._read_table()
        if self._loaded is None:
            raise Transient(f"cancelling {number}: «Мои брони» did not come back")
        if await self._row_index(number) is not None:
            raise Transient(f"booking {number} is still listed after «Отменить» ({asked})")
        return asked[0] if asked else ""
