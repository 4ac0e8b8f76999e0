"""Reading an accessibility snapshot (Playwright's ``aria_snapshot``, as a demonstration
keeps one per step): its tables (caption, column titles, rows of cells, the address of
a cell's link), its «term: value» pairs (a description list, or a table of row headers
and their cells), its drop-downs, and the lines of text it shows."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Cell", "Combobox", "Table", "comboboxes", "tables", "terms", "texts"]

# «- table "name":», «- 'table "a: b"':» (quoted for YAML) or an unnamed «- table:».
_TABLE = re.compile(r"""^(?P<indent> *)- '?table(?: "(?P<name>(?:[^"\\]|\\.)*)")?'?:""", re.M)
_LINE = re.compile(
    r"^(?P<indent> *)- '?(?P<role>columnheader|rowheader|row|cell|link|caption|/url)"
    r'(?: "(?P<text>(?:[^"\\]|\\.)*)")?\'?(?: \[[^\]]*\])*:?(?: (?P<value>.+))?$'
)  # quoted for YAML («- 'columnheader "a: b"': a») where the name has a colon


def _unquoted(text: str) -> str:
    """A snapshot's value as shown: YAML quotes and escapes removed."""
    text = text.strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    return text.replace('\\"', '"').replace("\\\\", "\\")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@dataclass(frozen=True)
class Cell:
    text: str
    header: bool = False  # a row's header cell
    link: bool = False  # holds a link
    url: str = ""  # its first link's address, as the page wrote it


@dataclass(frozen=True)
class Table:
    name: str  # its accessible name ("" when it has none)
    caption: str  # its caption's text ("" when it has none)
    heads: list[str]  # the column titles, an empty title kept as ""
    rows: list[list[Cell]] = field(default_factory=list)  # rows of cells, no empty ones


def tables(snapshot: str) -> list[Table]:
    """Each table of an accessibility snapshot, in the page's order."""
    found = []
    lines = snapshot.splitlines()
    for match in _TABLE.finditer(snapshot):
        start = snapshot.count("\n", 0, match.start())
        depth = len(match["indent"])
        caption = ""
        heads: list[str] = []
        rows: list[list[Cell]] = []
        for line in lines[start + 1 :]:
            if _indent(line) <= depth:
                break  # the table's block ended
            item = _LINE.match(line)
            if item is None:
                continue
            role, text = item["role"], _unquoted(item["text"] or "")
            last = rows[-1][-1] if rows and rows[-1] else None
            if role == "caption":
                caption = _unquoted(item["value"] or "")
            elif role == "columnheader":
                # A header's own words where its accessible name adds more («Начало:
                # активировать для сортировки…», a sortable table's).
                heads.append(_unquoted(item["value"]) if item["value"] else text)
            elif role == "row":
                rows.append([])
            elif role == "link" and last is not None:
                rows[-1][-1] = Cell(last.text, last.header, link=True, url=last.url)
            elif role == "/url" and last is not None and last.link and not last.url:
                rows[-1][-1] = Cell(last.text, last.header, True, _unquoted(item["value"] or ""))
            elif rows and role in ("cell", "rowheader"):
                rows[-1].append(Cell(text, header=role == "rowheader"))
        name = (match["name"] or "").replace('\\"', '"')
        found.append(Table(name, caption, heads, [row for row in rows if row]))
    return found


_TERM = re.compile(r"^ *- term: (?P<text>.+)$")
_VALUE = re.compile(r"^ *- (?:definition|[a-z]+): (?P<text>.+)$")


def terms(snapshot: str) -> dict[str, str]:
    """The «term: value» pairs of an accessibility snapshot: a description list's (a
    value may sit one level down, as in «definition: - time: 27.11.2026»), and a table's
    rows of a row header and one cell («Дата | 27.11.2026») or of two plain cells, the
    first a label («Время начала: | …», MRBS's), as a profile's ``term`` reads them."""
    pairs: dict[str, str] = {}
    term: str | None = None
    for line in snapshot.splitlines():
        found = _TERM.match(line)
        if found:
            term = _unquoted(found["text"])
            continue
        value = _VALUE.match(line)
        if term is not None and value is not None:
            pairs.setdefault(term, _unquoted(value["text"]))
            term = None
    for table in tables(snapshot):
        for row in table.rows:
            if len(row) != 2 or row[1].header or not row[0].text:
                continue
            if row[0].header:
                pairs.setdefault(row[0].text, row[1].text)
            elif row[0].text.endswith(":"):  # two plain cells, a label and its value
                pairs.setdefault(row[0].text.rstrip(":").strip(), row[1].text)
    return pairs


_COMBOBOX = re.compile(r'^(?P<indent> *)- combobox "(?P<name>[^"]*)"', re.MULTILINE)
_OPTION = re.compile(r'- option "(?P<name>[^"]*)"(?P<chosen> \[selected\])?')


@dataclass(frozen=True)
class Combobox:
    name: str
    options: list[str]
    chosen: str | None  # the option selected (None: none is marked)


def comboboxes(snapshot: str) -> list[Combobox]:
    """Each drop-down: its name, its options, and the one chosen."""
    found = []
    for match in _COMBOBOX.finditer(snapshot):
        block = snapshot[match.end() :].split("\n- ", 1)[0]
        options = list(_OPTION.finditer(block))
        chosen = next((o["name"] for o in options if o["chosen"]), None)
        found.append(Combobox(match["name"], [o["name"] for o in options], chosen))
    return found


# A line that shows words: «- text: …», «- paragraph: …», «- alert "…"», «- strong: …».
_SHOWN = re.compile(r'^ *- (?P<role>[a-z]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?:: (?P<text>.+))?$')
_NAMED = re.compile(r'^ *- (?:textbox|combobox|spinbutton|checkbox|radio|slider) "(?P<name>[^"]*)"')
# Controls, headings, tables and landmarks: their names label something, they say nothing.
_NO_WORDS = {"link", "button", "textbox", "combobox", "option", "spinbutton", "checkbox",
             "radio", "heading", "img", "row", "cell", "columnheader", "rowheader", "term",
             "definition", "caption", "listitem", "slider", "tab", "menuitem", "navigation",
             "search", "form", "group", "list", "region", "dialog", "table", "rowgroup",
             "grid", "tablist", "menu", "menubar", "toolbar", "tree", "banner", "main",
             "complementary", "figure"}  # fmt: skip


def texts(snapshot: str) -> list[tuple[str, str]]:
    """Each line of words the page shows, with its role («text», «paragraph», «alert»,
    …); not controls, headings or tables. A field's label that the snapshot ran on
    into the text before it («Time slot is already booked Дата» over the «Дата»
    field) is cut off: it is the field's, not the text's."""
    lines = snapshot.splitlines()
    found = []
    for at, line in enumerate(lines):
        shown = _SHOWN.match(line)
        if shown is None or shown["role"] in _NO_WORDS or shown["role"].startswith("/"):
            continue
        words = _unquoted(shown["text"] or shown["name"] or "")
        following = _NAMED.match(lines[at + 1]) if at + 1 < len(lines) else None
        label = following["name"] if following else ""
        if label and (words == label or words.endswith(" " + label)):
            words = words[: -len(label)].rstrip()
        if words:
            found.append((shown["role"], words))
    return found
