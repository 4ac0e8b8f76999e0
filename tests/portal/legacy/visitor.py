"""A browser-less visitor of the legacy booking site (portal/legacy) over plain HTTP, and
a tiny reader of its HTML tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import aiohttp

from portal.legacy.data import BUILDINGS
from portal.legacy.server import RunningLegacy
from tests.portal.helpers import START

__all__ = [
    "PURPOSE", "THURSDAY", "TOMORROW", "Cell", "Page", "Table", "Visitor", "bookings", "dmy",
    "expand", "props", "room_301", "tables",
]  # fmt: skip

TOMORROW = START.date() + timedelta(days=1)
THURSDAY = START.date() + timedelta(days=3)
PURPOSE = "Заседание Шахматного клуба"
_CSRF = re.compile(r'name="_csrf" value="([^"]+)"')


def dmy(day: Any) -> str:
    return f"{day:%d.%m.%Y}"


# --- a tiny HTML table reader -----------------------------------------------------------


@dataclass
class Cell:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


@dataclass
class Table:
    caption: str = ""
    rows: list[list[Cell]] = field(default_factory=list)


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self._cell: Cell | None = None
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "table":
            self.tables.append(Table())
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr" and self.tables:
            self.tables[-1].rows.append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = Cell(tag, values)
            self.tables[-1].rows[-1].append(self._cell)
        elif tag == "a" and self._cell is not None:
            self._cell.links.append(values)
        elif tag == "br" and self._cell is not None:
            self._cell.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self.tables[-1].caption += data
        elif self._cell is not None:
            self._cell.parts.append(data)


def tables(html: str) -> list[Table]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def expand(rows: list[list[Cell]]) -> list[list[Cell]]:
    """The HTML table model: place each cell, letting rowspans cover the rows below.

    Fails unless every row comes out exactly as wide as the header row, no gaps, no overlaps.
    """
    slots: dict[tuple[int, int], Cell] = {}
    for r, row in enumerate(rows):
        c = 0
        for cell in row:
            while (r, c) in slots:
                c += 1
            for k in range(int(cell.attrs.get("rowspan") or 1)):
                assert (r + k, c) not in slots, f"cells overlap at row {r + k}, column {c}"
                slots[(r + k, c)] = cell
            c += 1
    width = len(rows[0])
    for r in range(len(rows)):
        assert sorted(c for rr, c in slots if rr == r) == list(range(width)), f"row {r}"
    assert max(r for r, _ in slots) == len(rows) - 1, "a rowspan runs past the table"
    return [[slots[(r, c)] for c in range(width)] for r in range(len(rows))]


def props(html: str) -> dict[str, str]:
    """A booking page's two-column table: label → value."""
    (table,) = tables(html)
    return {row[0].text: row[1].text for row in table.rows}


# --- a browser-less visitor -------------------------------------------------------------


@dataclass
class Page:
    status: int
    text: str
    location: str | None

    @property
    def csrf(self) -> str:
        found = _CSRF.search(self.text)
        assert found, f"no CSRF token ({self.status})"
        return found.group(1)


class Visitor:
    def __init__(self, url: str) -> None:
        self.url = url
        # unsafe=True: the default jar refuses cookies from IP hosts such as 127.0.0.1.
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def close(self) -> None:
        await self.http.close()

    async def get(self, path: str) -> Page:
        async with self.http.get(self.url + path, allow_redirects=False) as resp:
            return Page(resp.status, await resp.text(), resp.headers.get("Location"))

    async def post(self, path: str, form: dict[str, str], *, referer: str = "") -> Page:
        headers = {"Referer": self.url + referer} if referer else {}
        async with self.http.post(
            self.url + path, data=form, headers=headers, allow_redirects=False
        ) as resp:
            return Page(resp.status, await resp.text(), resp.headers.get("Location"))

    async def login(self, username: str, password: str, back: str = "/schedule") -> Page:
        token = (await self.get("/auth/login")).csrf
        form = {"_csrf": token, "j_username": username, "j_password": password, "back": back}
        return await self.post("/auth/login", form)

    async def reserve(
        self, room: int, day: str, start: int, end: int, comment: str = "Заседание клуба"
    ) -> Page:
        token = (await self.get(f"/reserve?room={room}&t={start}&day={day}")).csrf
        form = {
            "_csrf": token, "room": str(room), "day": day, "time_from": str(start),
            "time_to": str(end), "comment": comment, "people": "10",
        }  # fmt: skip
        return await self.post("/reserve", form, referer=f"/reserve?room={room}")


async def bookings(site: RunningLegacy) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{site.url}/_test/bookings") as resp:
        assert resp.status == 200
        body: list[dict[str, Any]] = await resp.json()
        return body


def room_301() -> int:
    main = BUILDINGS[0]
    return next(r.id for r in main.rooms if r.number == "301")
