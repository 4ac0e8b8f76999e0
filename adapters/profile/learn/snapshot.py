"""Reading an accessibility snapshot (Playwright's ``aria_snapshot``, as a demonstration
keeps one per step): its tables (column titles, rows of cells, which cells hold a link),
its «term: value» pairs and its drop-downs."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Cell", "comboboxes", "tables", "terms"]


_TABLE = re.compile(r"""^(?P<indent> *)- '?table "(?P<name>[^"]*)"'?""", re.MULTILINE)
_LINE = re.compile(
    r"^(?P<indent> *)- (?P<role>columnheader|rowheader|row|cell|link)"
    r'(?: "(?P<text>(?:[^"\\]|\\.)*)")?'
)


@dataclass(frozen=True)
class Cell:
    text: str
    header: bool = False  # a row's header cell
    link: bool = False  # holds a link


def tables(snapshot: str) -> list[tuple[str, list[str], list[list[Cell]]]]:
    """Each named table of an accessibility snapshot: its name, column titles, rows."""
    found = []
    lines = snapshot.splitlines()
    for match in _TABLE.finditer(snapshot):
        start = snapshot.count("\n", 0, match.start())
        depth = len(match["indent"])
        heads: list[str] = []
        rows: list[list[Cell]] = []
        for line in lines[start + 1 :]:
            if len(line) - len(line.lstrip(" ")) <= depth:
                break  # the table's block ended
            item = _LINE.match(line)
            if item is None:
                continue
            role, text = item["role"], item["text"] or ""
            if role == "columnheader":
                heads.append(text)
            elif role == "row":
                rows.append([])
            elif role == "link" and rows and rows[-1]:
                rows[-1][-1] = Cell(rows[-1][-1].text, rows[-1][-1].header, link=True)
            elif rows and role in ("cell", "rowheader"):
                rows[-1].append(Cell(text, header=role == "rowheader"))
        found.append((match["name"], heads, [row for row in rows if row]))
    return found


_TERM = re.compile(r"^ *- term: (?P<text>.+)$")
_VALUE = re.compile(r"^ *- (?:definition|[a-z]+): (?P<text>.+)$")


def terms(snapshot: str) -> dict[str, str]:
    """The «term: value» pairs of an accessibility snapshot (a value may sit one level
    down, as in «definition: - time: 27.11.2026»)."""
    pairs: dict[str, str] = {}
    term: str | None = None
    for line in snapshot.splitlines():
        found = _TERM.match(line)
        if found:
            term = found["text"].strip().strip('"')
            continue
        value = _VALUE.match(line)
        if term is not None and value is not None:
            pairs.setdefault(term, value["text"].strip().strip('"'))
            term = None
    return pairs


_COMBOBOX = re.compile(r'^(?P<indent> *)- combobox "(?P<name>[^"]*)"', re.MULTILINE)


def comboboxes(snapshot: str) -> list[tuple[str, list[str], bool]]:
    """Each drop-down: its name, its options, and whether one is chosen."""
    found = []
    for match in _COMBOBOX.finditer(snapshot):
        block = snapshot[match.end() :].split("\n- ", 1)[0]
        options = re.findall(r'- option "([^"]*)"', block)
        found.append((match["name"], options, "[selected]" in block))
    return found
