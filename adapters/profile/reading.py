"""Reading values off a page with a profile's picks.

The page is read in one round trip by the interpreter's own fixed scripts below, which
take the profile's selectors as data (``querySelector`` arguments, never code); the
regular expressions and formats of the picks then run here, in Python.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, time
from typing import Any

from playwright.async_api import Locator, Page

from adapters.profile.choosing import column_index
from adapters.profile.model import RoomPicks
from adapters.profile.parts import Cond, Pick
from adapters.profile.patterns import first_group, search
from adapters.profile.template import DATE_FORMATS, parse_date, parse_time
from core.site.models import Room

__all__ = [
    "DESCRIBE_JS",
    "Item",
    "Table",
    "Terms",
    "as_date",
    "as_int",
    "as_span",
    "as_time",
    "cell_probes_of",
    "first_group",
    "groups_of",
    "holds",
    "probe",
    "probes_of",
    "read_items",
    "read_table",
    "read_terms",
    "room_of",
    "value",
]

DESCRIBE_JS = r"""
const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
// An element's shown text with the elements ``sel`` matches left out (blocks apart).
const textWithout = (el, sel) => {
  const parts = [];
  const walk = (node) => {
    for (const c of node.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) parts.push(c.nodeValue);
      if (c.nodeType !== Node.ELEMENT_NODE || c.matches(sel)) continue;
      if (/^(SCRIPT|STYLE|TEMPLATE)$/.test(c.tagName)) continue;
      if (c.checkVisibility && !c.checkVisibility()) continue;
      const apart = c.tagName === "BR" || !getComputedStyle(c).display.startsWith("inline");
      parts.push(apart ? " " : "");
      walk(c);
      parts.push(apart ? " " : "");
    }
  };
  walk(el);
  return clean(parts.join(""));
};
// A probe: "css" (its text), "css@attr", or "css\u001fwithout" (its text without those).
const probe = (el, spec) => {
  const cut = spec.indexOf("\u001f");
  const without = cut >= 0 ? spec.slice(cut + 1) : "";
  const rest = cut >= 0 ? spec.slice(0, cut) : spec;
  const at = without ? -1 : rest.lastIndexOf("@");
  const sel = at >= 0 ? rest.slice(0, at) : rest;
  const target = sel ? el.querySelector(sel) : el;
  if (!target) return null;
  if (without) return textWithout(target, without);
  return at >= 0 ? target.getAttribute(rest.slice(at + 1)) : clean(target.innerText);
};
const describe = (el, probes, has) => ({
  text: clean(el.innerText || el.textContent),
  title: el.getAttribute("title") || "",
  probes: Object.fromEntries(probes.map((p) => [p, probe(el, p)])),
  has: Object.fromEntries(has.map((h) => [h, !!el.querySelector(h)])),
});
"""

# A table with its cells' row and column spans resolved (the HTML table model): per
# row, the index of the cell covering each column.
_READ_TABLE = (
    "(table, req) => {"
    + DESCRIBE_JS
    + r"""
  const grid = [], cells = [], lines = [];
  Array.from(table.rows).forEach((tr, r) => {
    grid[r] = grid[r] || [];
    lines.push(describe(tr, req.lineProbes, []));
    let c = 0;
    Array.from(tr.cells).forEach((td) => {
      while (grid[r][c] !== undefined) c++;
      const index = cells.length;
      cells.push({ ...describe(td, req.probes, req.has), at: [r, c] });
      // A span ends with its row group (thead, tbody, tfoot) and with the table.
      const left = tr.parentElement.rows.length - tr.sectionRowIndex;
      const rows = Math.min(Math.max(1, td.rowSpan || 1), left);
      const cols = Math.max(1, td.colSpan || 1);
      for (let i = 0; i < rows; i++) {
        grid[r + i] = grid[r + i] || [];
        for (let j = 0; j < cols; j++) grid[r + i][c + j] = index;
      }
      c += cols;
    });
  });
  return JSON.stringify({ grid, cells, lines, self: describe(table, req.selfProbes, []) });
}"""
)

# Every element a locator matches, described; with, per ``groups`` selector, the text of
# the last element matching it before the item (its group's heading).
_READ_ITEMS = (
    "(elements, req) => {"
    + DESCRIBE_JS
    + r"""
  const headings = req.groups.map((sel) => [sel, Array.from(document.querySelectorAll(sel))]);
  const before = (el, all) => all.filter(
    (h) => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
  return JSON.stringify(elements.map((el) => {
    const item = describe(el, req.probes, req.has);
    headings.forEach(([sel, all]) => {
      const h = before(el, all);
      item.probes["group:" + sel] = h ? clean(h.innerText) : null;
    });
    return item;
  }));
}"""
)

# «Term: value» pairs of a page (dt/dd, role=term/definition, a row of two cells: th/td
# or td/td, as MRBS's booking page), and the page's main region (or body) for CSS picks.
_READ_TERMS = (
    "(req) => {"
    + DESCRIBE_JS
    + r"""
  const root = document.querySelector("main") || document.body;
  const pairs = {};
  const put = (k, v) => {
    k = clean(k).replace(/:$/, "");
    if (k && !(k in pairs)) pairs[k] = clean(v);
  };
  root.querySelectorAll("dt, [role=term]").forEach((dt) => {
    let dd = dt.nextElementSibling;
    while (dd && !(dd.matches("dd, [role=definition]"))) dd = dd.nextElementSibling;
    if (dd) put(dt.innerText, dd.innerText);
  });
  root.querySelectorAll("tr").forEach((tr) => {
    if (tr.cells.length === 2) put(tr.cells[0].innerText, tr.cells[1].innerText);
  });
  return JSON.stringify({ pairs, self: describe(root, req.probes, req.has) });
}"""
)


@dataclass(frozen=True, slots=True)
class Item:
    """One element as read: its text, title, the probed selectors and ``has`` tests."""

    text: str = ""
    title: str = ""
    probes: Mapping[str, str | None] = field(default_factory=dict)
    has: Mapping[str, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Item:
        return cls(raw["text"], raw["title"], raw["probes"], raw["has"])


@dataclass(frozen=True, slots=True)
class Table:
    """A table as read: per row, the index of the cell covering each column (None where
    a short row leaves a gap), and each cell's own first row and column (``at``)."""

    grid: list[list[int | None]]
    cells: list[Item]
    at: list[tuple[int, int]]
    lines: list[Item]
    self: Item

    def cell(self, row: int, col: int) -> Item | None:
        index = self.index(row, col)
        return self.cells[index] if index is not None else None

    def index(self, row: int, col: int) -> int | None:
        if row < len(self.grid) and col < len(self.grid[row]):
            return self.grid[row][col]
        return None

    def row(self, row: int) -> list[Item]:
        """The row's cells by column (an empty item for a gap)."""
        return [self.cells[i] if i is not None else Item() for i in self.grid[row]]


@dataclass(frozen=True, slots=True)
class Terms:
    pairs: Mapping[str, str]
    self: Item


# Between a probe's CSS and what its text is read without (never in a selector).
_WITHOUT = "\x1f"


def probe(css: str, without: str | None) -> str:
    """The probe reading ``css`` (inside an item; '' is the item) without ``without``."""
    return css if without is None else f"{css}{_WITHOUT}{without}"


def _probes(pick: Pick) -> list[str]:
    if pick.css:
        return [probe(css, pick.without) for css in pick.css]
    return [probe("", pick.without)] if pick.without is not None else []


def probes_of(picks: Iterable[Pick | None]) -> list[str]:
    """The CSS probes the picks read inside an item (not a group's heading, not inside
    a column's cell)."""
    return sorted(
        {
            spec
            for pick in picks
            if pick is not None and pick.of != "group" and pick.column is None
            for spec in _probes(pick)
        }
    )


def cell_probes_of(picks: Iterable[Pick | None]) -> list[str]:
    """The probes the picks of a column read inside its cell."""
    return sorted(
        {spec for pick in picks if pick is not None and pick.column for spec in _probes(pick)}
    )


def groups_of(picks: Iterable[Pick | None]) -> list[str]:
    """The headings (CSS) the picks read an item's group from."""
    return sorted(
        {css for pick in picks if pick is not None and pick.of == "group" for css in pick.css}
    )


async def read_table(
    table: Locator,
    *,
    probes: Sequence[str] = (),
    has: Sequence[str] = (),
    line_probes: Sequence[str] = (),
    self_probes: Sequence[str] = (),
) -> Table:
    raw = json.loads(
        await table.evaluate(
            _READ_TABLE,
            {
                "probes": list(probes),
                "has": list(has),
                "lineProbes": list(line_probes),
                "selfProbes": list(self_probes),
            },
        )
    )
    return Table(
        grid=raw["grid"][: len(raw["lines"])],
        cells=[Item.of(c) for c in raw["cells"]],
        at=[(c["at"][0], c["at"][1]) for c in raw["cells"]],
        lines=[Item.of(line) for line in raw["lines"]],
        self=Item.of(raw["self"]),
    )


async def read_items(
    items: Locator,
    *,
    probes: Sequence[str] = (),
    has: Sequence[str] = (),
    groups: Sequence[str] = (),
) -> list[Item]:
    raw = await items.evaluate_all(
        _READ_ITEMS, {"probes": list(probes), "has": list(has), "groups": list(groups)}
    )
    return [Item.of(item) for item in json.loads(raw)]


async def read_terms(page: Page, *, probes: Sequence[str] = (), has: Sequence[str] = ()) -> Terms:
    raw = json.loads(await page.evaluate(_READ_TERMS, {"probes": list(probes), "has": list(has)}))
    return Terms(pairs=raw["pairs"], self=Item.of(raw["self"]))


def holds(cond: Cond, item: Item) -> bool:
    if cond.has is not None and not item.has.get(cond.has):
        return False
    return cond.text is None or cond.text.lower() in f"{item.text} {item.title}".lower()


def _raw(pick: Pick, item: Item, columns: Sequence[str] = (), row: Sequence[Item] = ()) -> str:
    if pick.column is not None:
        index = column_index(pick.column, columns)
        if index is None or index >= len(row):
            return ""
        item = row[index]  # the column's cell: ``css`` inside it
    specs = [f"group:{css}" for css in pick.css] if pick.of == "group" else _probes(pick)
    for spec in specs:
        if found := item.probes.get(spec):
            return " ".join(found.split())
    return "" if specs else item.text


def value(
    pick: Pick,
    item: Item,
    *,
    columns: Sequence[str] = (),
    row: Sequence[Item] = (),
    terms: Mapping[str, str] | None = None,
) -> str:
    """The pick's text from an item (a cell, a row's cells by ``columns``, a page's
    ``terms``), after its regex: its first group, or the whole match; '' if absent."""
    if pick.term is not None:
        wanted = pick.term.lower()
        text = next((v for k, v in (terms or {}).items() if k.lower() == wanted), "")
    else:
        text = _raw(pick, item, columns, row)
    if pick.regex is not None:
        found = search(pick.regex, text)
        if found is None:
            return ""
        text = first_group(found)
    return text.strip()


def as_int(text: str) -> int | None:
    found = re.search(r"\d+", text)
    return int(found.group()) if found else None


# Date forms that cannot be read two ways: a site that took to one of them (2026-11-27
# where 27.11.2026 was) is still read right. Day and month swapped (27/11 against 11/27)
# could be, and is not tried.
_UNAMBIGUOUS_DATES = ("iso", "long")


def as_date(pick: Pick, text: str) -> date | None:
    written = pick.format if pick.format in DATE_FORMATS else "iso"
    for fmt in (written, *(f for f in _UNAMBIGUOUS_DATES if f != written)):
        if (day := parse_date(text, fmt)) is not None:
            return day
    return None


# Clock times: with a colon first («ауд. 2.14, 08:00–08:30»), else with a dot too.
_COLON_CLOCK = re.compile(r"(?<![\d.:])\d{1,2}:\d{2}(?!\d)(?:\s*[AaPp]\.?[Mm]\.?)?")
_ANY_CLOCK = re.compile(r"(?<![\d.:])\d{1,2}[:.]\d{2}(?![\d.])(?:\s*[AaPp]\.?[Mm]\.?)?")


def as_time(pick: Pick, text: str) -> time | None:
    """A time pick's time: the first clock time in the text, not the day and month of a
    date before it («08.12.2026 18:00», «вторник, 8 декабря 2026 г. в 18:00»)."""
    if pick.format in ("seconds", "minutes"):
        return parse_time(text, pick.format)
    for clock in (_COLON_CLOCK, _ANY_CLOCK):
        if (found := clock.search(text)) is not None:
            return parse_time(found.group())
    return None


def as_span(pick: Pick, text: str) -> tuple[time, time | None] | None:
    """A ``span`` pick: the two times it holds, the end after the start («22:00–24:00»
    ends at 23:59); a time format: the start (the end is the caller's). Text with more
    than two times is no span (a ``<select>``'s every option, say): None, never a guess."""
    if pick.format == "span":
        for clock in (_COLON_CLOCK, _ANY_CLOCK):
            found = [written.replace("24:00", "23:59") for written in clock.findall(text)]
            if len(found) > 2:
                return None
            times = [t for t in map(parse_time, found) if t is not None]
            if len(times) == 2 and times[0] < times[1]:
                return times[0], times[1]
        return None
    start = as_time(pick, text)
    return (start, None) if start is not None else None


def room_of(picks: RoomPicks, header: Item, *, building: str, number: str, site_id: str) -> Room:
    """A room as its header (a grid's header cell, a timeline's line) shows it; without
    the site's own id, «building-number»."""
    return Room(
        id=site_id or f"{building}-{number}",
        building=building,
        number=number,
        floor=as_int(value(picks.floor, header)) if picks.floor else None,
        capacity=as_int(value(picks.capacity, header)) if picks.capacity else None,
    )
