"""A table read from a page's HTML as the server sent it, without a browser: the same
``Table`` ``reading.read_table`` reads from a page (cells by the HTML table model, text as
the browser lays it out, the same probes), for the fast path's check after booking.

The HTML is parsed as a browser parses it (lexbor, through selectolax: implied ``tbody``
and end tags included). A table is found by a profile locator ``role: table`` (with its
accessible name) or ``css``, and must be the only one it finds. Any other locator, a
selector lexbor cannot read, or no table or several give None, and the caller reads the
page. What a page's scripts or style sheets change is not seen here, which is why the
caller trusts such a read only to confirm what the session itself just sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from adapters.profile.parts import Locator
from adapters.profile.reading import Item, Table

__all__ = ["page_in_html", "table_in_html"]

# fmt: off
# Elements the browser lays out in line: no break before or after them.
_INLINE = frozenset({
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u",
    "var",
})
# Never laid out as text.
_UNSHOWN = frozenset({
    "head", "script", "style", "template", "noscript", "title", "select", "textarea",
})
# fmt: on
_SECTIONS = ("thead", "tbody", "tfoot")
# What the browser lays out apart from the text around it, or may hide or restyle.
_APART = f":not({', '.join(sorted(_INLINE))}), [hidden], [style]"


_Describe = Callable[
    [LexborNode, "dict[str, str | None] | None"], Item
]  # an element, its attributes if read


class _Unfollowed(ValueError):
    """A selector lexbor cannot read (Playwright's own extensions among them)."""


def _children(node: LexborNode) -> Iterator[LexborNode]:
    return (child for child in node.iter() if child.is_element_node)


def _hidden(node: LexborNode, attributes: dict[str, str | None] | None = None) -> bool:
    if node.tag in _UNSHOWN:
        return True
    attrs = node.attributes if attributes is None else attributes
    style = attrs.get("style")
    return "hidden" in attrs or (
        style is not None and "display:none" in style.replace(" ", "").lower()
    )


class _Document:
    """The parsed page, with each selector's matches found once (as ``querySelector``
    matches: against the whole document, then within an element)."""

    def __init__(self, html: str | LexborHTMLParser) -> None:
        self.tree = LexborHTMLParser(html) if isinstance(html, str) else html
        self._matched: dict[str, set[int]] = {}
        self._found: dict[str, list[LexborNode]] = {}
        # Per selector: each element's first match below it (one walk of the document
        # instead of one of every cell's insides per probe).
        self._firsts: dict[str, dict[int, LexborNode]] = {}
        # By node: a row's text is its cells', the table's its rows', each laid out once.
        self._shown: dict[int, bool] = {}
        self._laid_out: dict[int, str] = {}
        self._mixed: set[int] | None = None

    def found(self, css: str) -> list[LexborNode]:
        """What ``css`` matches in the document, in document order (as lexbor finds)."""
        if css not in self._found:
            try:
                self._found[css] = self.tree.css(css)
            except SelectolaxError as exc:
                raise _Unfollowed(css) from exc
        return self._found[css]

    def matching(self, css: str) -> set[int]:
        if css not in self._matched:
            self._matched[css] = {node.mem_id for node in self.found(css)}
        return self._matched[css]

    def shown(self, node: LexborNode, attributes: dict[str, str | None] | None = None) -> bool:
        """Whether the node (its ``attributes``, if read) is laid out: neither it nor an
        ancestor hidden."""
        if (cached := self._shown.get(node.mem_id)) is not None:
            return cached
        parent = node.parent
        if parent is not None and (above := self._shown.get(parent.mem_id)) is not None:
            # A row's next cell: its row is known.
            known = self._shown[node.mem_id] = above and not _hidden(node, attributes)
            return known
        unknown: list[LexborNode] = []
        walk: LexborNode | None = node
        known = True  # above the document's root
        while walk is not None and walk.is_element_node:
            if (cached := self._shown.get(walk.mem_id)) is not None:
                known = cached
                break
            unknown.append(walk)
            walk = walk.parent
        for at in reversed(unknown):  # from the top down
            known = self._shown[at.mem_id] = known and not _hidden(at)
        return known

    def text(self, node: LexborNode, attributes: dict[str, str | None] | None = None) -> str:
        """The node's text as the browser lays it out (``innerText``; of a node not laid
        out, its ``textContent``), spaces made single (``clean``)."""
        if not self.shown(node, attributes):
            return " ".join(node.text(deep=True).split())
        return " ".join(self._laid(node).split())

    def _laid(self, node: LexborNode) -> str:
        """The text of a shown node's children, breaks between blocks as spaces."""
        known = self._laid_out.get(node.mem_id)
        if known is not None:
            return known
        if node.mem_id not in self.mixed():
            # Text and plain inline elements only (a grid's cell, mostly): its text is
            # every text inside it, in order, as lexbor gives it in one call.
            laid = self._laid_out[node.mem_id] = node.text(deep=True)
            return laid
        parts: list[str] = []
        for child in node.iter(include_text=True):
            if child.is_text_node:
                parts.append(child.text_content or "")
            elif not child.is_element_node or _hidden(child):
                continue
            elif child.tag == "br":
                parts.append(" ")
            else:
                apart = " " if child.tag not in _INLINE else ""
                parts += (apart, self._laid(child), apart)
        laid = self._laid_out[node.mem_id] = "".join(parts)
        return laid

    def mixed(self) -> set[int]:
        """The elements holding one laid out apart from plain text: a block, a line
        break, anything unshown, hidden or styled (``_laid`` walks these)."""
        if self._mixed is None:
            mixed: set[int] = set()
            for element in self.tree.css(_APART):
                walk = element.parent
                while walk is not None and walk.mem_id not in mixed:
                    mixed.add(walk.mem_id)
                    walk = walk.parent
            self._mixed = mixed
        return self._mixed

    def firsts(self, css: str) -> dict[int, LexborNode]:
        """Element → its first descendant ``css`` matches (``querySelector``'s answer),
        for every element at once, not by a walk of each cell per probe."""
        if (known := self._firsts.get(css)) is not None:
            return known
        firsts: dict[int, LexborNode] = {}
        for found in self.found(css):
            walk = found.parent
            # An ancestor already known has an earlier match, and so have all above it.
            while walk is not None and walk.mem_id not in firsts:
                firsts[walk.mem_id] = found
                walk = walk.parent
        self._firsts[css] = firsts
        return firsts

    def describer(self, probes: Sequence[str], has: Sequence[str]) -> _Describe:
        """Reads an element as ``DESCRIBE_JS`` does: its text, title, each probe
        (``css@attribute``, or ``css`` for its text, inside it; an empty css is the
        element itself) and each ``has`` test. Prepared once for a table's every cell."""
        ways: list[tuple[str, dict[int, LexborNode] | None, str | None]] = []
        for spec in probes:
            if "\x1f" in spec:  # a text without some elements (``reading.probe``): the page's
                raise _Unfollowed(spec)
            css, at, attribute = spec.rpartition("@") if "@" in spec else (spec, "", "")
            ways.append((spec, self.firsts(css) if css else None, attribute if at else None))
        tests = [(h, self.firsts(h)) for h in has]
        text = self.text

        def describe(node: LexborNode, attributes: dict[str, str | None] | None = None) -> Item:
            attributes = node.attributes if attributes is None else attributes
            at = node.mem_id
            probed: dict[str, str | None] = {}
            for spec, firsts, attribute in ways:
                target = node if firsts is None else firsts.get(at)
                if target is None:
                    probed[spec] = None
                elif attribute is not None:
                    probed[spec] = target.attributes.get(attribute)
                else:
                    probed[spec] = text(target)
            return Item(
                text=text(node, attributes),
                title=attributes.get("title") or "",
                probes=probed,
                has={h: at in firsts for h, firsts in tests},
            )

        return describe

    def tables(self, way: Locator) -> list[LexborNode] | None:
        """The shown tables ``way`` finds; None when it is not a way this reader follows."""
        if way.css is not None:
            matched = self.matching(way.css)
            return [t for t in self.tree.css("table") if t.mem_id in matched]
        if way.role != "table":
            return None
        ids = {node.attributes.get("id"): node for node in self.tree.css("[id]")}
        return [
            node
            for node in self.tree.css("table, [role]")
            if _role(node) == "table"
            and self.shown(node)
            and node.attributes.get("aria-hidden") != "true"
            and _named(_name(self, node, ids), way)
        ]


def _role(node: LexborNode) -> str:
    explicit = (node.attributes.get("role") or "").split()
    return explicit[0] if explicit else ("table" if node.tag == "table" else "")


def _name(doc: _Document, table: LexborNode, ids: dict[str | None, LexborNode]) -> str:
    """The table's accessible name: aria-labelledby, aria-label, its caption, its title."""
    attrs = table.attributes
    labelled = [ids[i] for i in (attrs.get("aria-labelledby") or "").split() if i in ids]
    if labelled:
        return " ".join(doc.text(node) for node in labelled)
    if label := " ".join((attrs.get("aria-label") or "").split()):
        return label
    caption = next((c for c in _children(table) if c.tag == "caption"), None)
    if caption is not None and (text := doc.text(caption)):
        return text
    return " ".join((attrs.get("title") or "").split())


def _named(name: str, way: Locator) -> bool:
    if way.name is None:
        return True
    wanted = " ".join(way.name.split())
    return name == wanted if way.exact else wanted.lower() in name.lower()


def _rows(table: LexborNode) -> list[tuple[LexborNode, int, int]]:
    """``table.rows``, each with its index in its section and its section's size: the
    head's rows first, the foot's last."""
    sections: dict[str, list[list[LexborNode]]] = {tag: [] for tag in _SECTIONS}
    for child in _children(table):
        if child.tag in sections:
            sections[child.tag].append([r for r in _children(child) if r.tag == "tr"])
    return [
        (row, index, len(rows))
        for tag in _SECTIONS
        for rows in sections[tag]
        for index, row in enumerate(rows)
    ]


def _span(written: str | None) -> int:
    if written is None:
        return 1
    try:
        return max(1, int((written or "1").strip() or 1))
    except ValueError:
        return 1


def _read(
    doc: _Document,
    table: LexborNode,
    probes: Sequence[str],
    has: Sequence[str],
    line_probes: Sequence[str],
    self_probes: Sequence[str],
) -> Table:
    """As ``reading._READ_TABLE``: per row, the index of the cell covering each column."""
    grid: list[list[int | None]] = []
    cells: list[Item] = []
    at: list[tuple[int, int]] = []
    lines: list[Item] = []
    cell, line = doc.describer(probes, has), doc.describer(line_probes, ())
    for r, (tr, index, size) in enumerate(_rows(table)):
        grid.extend([] for _ in range(r + 1 - len(grid)))
        lines.append(line(tr, None))
        c = 0
        for td in (e for e in _children(tr) if e.tag in ("td", "th")):
            while c < len(grid[r]) and grid[r][c] is not None:
                c += 1
            number = len(cells)
            attributes = td.attributes
            cells.append(cell(td, attributes))
            at.append((r, c))
            rows = min(_span(attributes.get("rowspan")), size - index)
            cols = _span(attributes.get("colspan"))
            grid.extend([] for _ in range(r + rows - len(grid)))
            for row in grid[r : r + rows]:
                row.extend([None] * (c + cols - len(row)))
                row[c : c + cols] = [number] * cols
            c += cols
    return Table(grid=grid[: len(lines)], cells=cells, at=at, lines=lines,
                 self=doc.describer(self_probes, ())(table, None))  # fmt: skip


def table_in_html(
    html: str | LexborHTMLParser,
    way: Locator,
    *,
    probes: Sequence[str] = (),
    has: Sequence[str] = (),
    line_probes: Sequence[str] = (),
    self_probes: Sequence[str] = (),
) -> Table | None:
    """The one table ``way`` finds in ``html`` (or its parsed tree), read as ``read_table``
    reads it; None when ``way`` or a probe is not one this reader follows, or it finds no
    table or several."""
    doc = _Document(html)
    try:
        found = doc.tables(way)
        if found is None or len(found) != 1:
            return None
        return _read(doc, found[0], probes, has, line_probes, self_probes)
    except (_Unfollowed, RecursionError):  # RecursionError: nested deeper than Python walks
        return None


def page_in_html(html: str | LexborHTMLParser, probes: Sequence[str]) -> Item | None:
    """The page's ``probes``, each its first match in the whole document (as
    ``grid.read_page`` reads them; not the page's text); None when a probe is not one
    this reader follows."""
    doc = _Document(html)
    root = doc.tree.root
    probed: dict[str, str | None] = {}
    try:
        for spec in probes:
            if "\x1f" in spec:  # a text without some elements (``reading.probe``)
                raise _Unfollowed(spec)
            css, at, attribute = spec.rpartition("@") if "@" in spec else (spec, "", "")
            target = doc.firsts(css).get(root.mem_id) if css and root is not None else root
            if target is None:
                probed[spec] = None
            else:
                probed[spec] = target.attributes.get(attribute) if at else doc.text(target)
    except (_Unfollowed, RecursionError):
        return None
    return Item(probes=probed)
