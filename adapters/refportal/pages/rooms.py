"""The rooms page: choose «Корпус» and «Дата», press «Показать», read the JS-loaded grid."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time
from typing import Any

from playwright.async_api import Page

from adapters.refportal.pages.base import LOGIN_PATH, land, path_of
from core.browser.retry import Bounced, Transient
from core.browser.summary import summarize
from core.site.errors import UnexpectedPage
from core.site.models import Interval, Room, merge_intervals
from scenarios.booking.errors import BookingRejected
from scenarios.booking.models import Availability, RoomAvailability

__all__ = ["RoomsPage", "parse_grid"]

_GRID_NAME = re.compile(r"^Занятость аудиторий")
_GRID_FAILED = "Не удалось загрузить расписание"
_SPAN = re.compile(r"(\d{1,2}:\d{2})\s*[–-]\s*(\d{1,2}:\d{2})")
_META = re.compile(r"(\d+)\s*этаж\D+(\d+)\s*мест")

# Building code → name pairs of the «Корпус» list (none when there is no such list).
_READ_OPTIONS = """
(selects) => selects.slice(0, 1).map((s) =>
  Array.from(s.options).map((o) => [o.value, o.textContent.trim()]))
"""

# Reads the table the grid script builds, in one round trip: its caption and, per body
# row, the row header's parts and, per cell, its accessible label (free cells hold a
# link) and title. No table: an empty list. Sent back as one JSON string: Playwright's
# own value serialisation of ~1000 small objects costs several times more.
_READ_GRID = """
(tables) => JSON.stringify(tables.slice(0, 1).map((table) => ({
 caption: table.caption ? table.caption.textContent : "",
 rows: Array.from(table.tBodies).flatMap((body) => Array.from(body.rows)).map((row) => ({
  room: row.getAttribute("data-room") || "",
  head: Array.from(row.cells).filter((c) => c.tagName === "TH").map((c) =>
    c.children.length ? Array.from(c.children).map((x) => x.textContent.trim())
                      : [c.textContent.trim()])[0] || [],
  cells: Array.from(row.cells).filter((c) => c.tagName === "TD").map((c) => {
    const link = c.querySelector("a[href]");
    return {
      free: !!link,
      label: (link && link.getAttribute("aria-label")) || "",
      title: c.getAttribute("title") || "",
      text: c.textContent.trim(),
    };
  }),
 })),
})))
"""


class RoomsPage:
    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self._buildings: dict[str, str] | None = None  # read once per page load

    async def open(self) -> None:
        await land(self.page, await self.page.goto(f"{self.base_url}/rooms"))
        self._buildings = None
        if not await self.buildings():
            raise UnexpectedPage(
                "На странице аудиторий нет выбора корпуса", await summarize(self.page)
            )

    async def is_current(self) -> bool:
        """On the rooms page already (its filters can be used without loading it again)."""
        return path_of(self.page) == "/rooms" and (
            await self.page.get_by_role("button", name="Показать").count() > 0
        )

    async def buildings(self) -> dict[str, str]:
        """Building code → name, from the «Корпус» list (empty when there is none)."""
        if self._buildings is None:
            lists: list[list[list[str]]] = await self.page.get_by_label(
                "Корпус", exact=True
            ).evaluate_all(_READ_OPTIONS)
            self._buildings = {value: name for value, name in (lists[0] if lists else [])}
        return self._buildings

    async def show(self, building: str, day: date) -> tuple[str, str]:
        """Choose the building (code or name) and the date and press «Показать»."""
        known = await self.buildings()
        wanted = building.strip().lower()
        code = next((c for c, n in known.items() if wanted in (c.lower(), n.lower())), None)
        if code is None:
            raise BookingRejected(
                f"Корпус «{building}» не найден на портале",
                code="unknown_building",
                hint="корпуса: " + ", ".join(known.values()),
            )
        await self.page.get_by_label("Корпус", exact=True).select_option(value=code)
        await self.page.get_by_label("Дата", exact=True).fill(day.isoformat())
        async with self.page.expect_navigation() as navigation:
            await self.page.get_by_role("button", name="Показать").click()
        await land(self.page, await navigation.value)
        self._buildings = None  # a new page
        return code, known[code]

    async def read_grid(
        self, *, building: str, name: str, day: date, timeout_ms: float
    ) -> Availability:
        """Wait for the script to load the grid (or fail, or bounce to login) and parse it."""
        page = self.page
        table = page.get_by_role("table", name=_GRID_NAME)
        failed = page.get_by_role("alert").filter(has_text=_GRID_FAILED)
        login = page.get_by_role("button", name="Войти")
        await table.or_(failed).or_(login).first.wait_for(timeout=timeout_ms)
        if path_of(page) == LOGIN_PATH:
            raise Bounced()  # the grid's JSON answered 401 and the script went to /login
        shown: list[dict[str, Any]] = json.loads(await table.evaluate_all(_READ_GRID))
        if not shown:
            if await login.count():
                raise Bounced()
            if await failed.count():
                raise Transient("the availability grid did not load")
            raise Transient("the availability grid went away while being read")
        caption = " ".join(str(shown[0]["caption"]).split())
        if day.strftime("%d.%m.%Y") not in caption:
            raise UnexpectedPage(f"Сетка показывает другой день: {caption}", await summarize(page))
        return parse_grid(shown[0]["rows"], building=building, name=name, day=day)


def _hhmm(text: str) -> time:
    return datetime.strptime(text, "%H:%M").time()


def parse_grid(rows: list[dict[str, Any]], *, building: str, name: str, day: date) -> Availability:
    """The rows read by ``_READ_GRID`` as a ``Availability`` (busy spans merged)."""
    result: list[RoomAvailability] = []
    opens, closes = time(23, 59), time(0, 0)
    for row in rows:
        head = [str(part) for part in row.get("head", [])]
        if not head:
            continue
        number = head[0].split()[0]
        meta = _META.search(" ".join(head[1:]))
        room = Room(
            id=str(row.get("room") or f"{building}-{number}"),
            building=building,
            number=number,
            floor=int(meta.group(1)) if meta else 0,
            capacity=int(meta.group(2)) if meta else 0,
        )
        busy: list[Interval] = []
        mine: list[Interval] = []
        for cell in row.get("cells", []):
            span = _SPAN.search(f"{cell.get('label', '')} {cell.get('title', '')}")
            if span is None:
                continue
            start, end = _hhmm(span.group(1)), _hhmm(span.group(2))
            opens, closes = min(opens, start), max(closes, end)
            if cell.get("free"):
                continue
            busy.append((start, end))
            if "ваша бронь" in f"{cell.get('title', '')} {cell.get('text', '')}":
                mine.append((start, end))
        result.append(
            RoomAvailability(room=room, busy=merge_intervals(busy), mine=merge_intervals(mine))
        )
    if opens > closes:
        opens, closes = time(8, 0), time(22, 0)
    return Availability(
        building=building, building_name=name, day=day, opens=opens, closes=closes, rooms=result
    )
