"""Whether a page is its HTML: nothing in it runs when it loads, and no style sheet hides
or rewrites its text beyond what ``htmltable`` reads itself (an element's own ``hidden``
and ``display: none``).

Such a page shows what the server sent, so a table read from its HTML is the table the
page shows: the fast path reads a server-drawn grid so and opens no page (an older site's
day, written whole by the server). A page that fails any of these rules is read in the
browser, as before; the rules err that way (a harmless style rule in a page's sheet sends
it to the browser too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from selectolax.lexbor import LexborHTMLParser, LexborNode

__all__ = ["shown_as_sent"]

# Elements that run, load another document or send the page elsewhere.
# (``noscript``: a browser running scripts holds its insides as text, the parser as elements.)
_RUNNING = "script, noscript, iframe, frame, frameset, object, embed, base, meta[http-equiv]"
# Handlers only a person's action fires (the page as loaded is what its HTML says).
_ON_ACTION = frozenset({
    "onclick", "ondblclick", "oncontextmenu", "onsubmit", "onreset", "onchange", "oninput",
    "onkeydown", "onkeyup", "onkeypress", "onmousedown", "onmouseup", "onmouseover",
    "onmouseout", "onmousemove", "onmouseenter", "onmouseleave",
})  # fmt: skip
# Style that hides text or writes other text than the HTML's (spaces taken out first); an
# element's own ``display: none`` is read by ``htmltable``, a sheet's is not.
_REWRITES = re.compile(r"visibility:|content:|text-transform:|@import|-webkit-text-security:")
_HIDES = re.compile(r"display:none")
# Attributes as written in a tag, looked for over the whole page's bytes, ASCII letters
# lowered (attribute names are ASCII; ``str.lower`` of a Cyrillic page is slow): one in a
# page's words only sends the page to the browser. A pattern starting with letters is
# found quickly; where an attribute starts is checked apart (``_in_tag``).
_HANDLER = re.compile(rb"on([a-z]+)\s*=")
_STYLE = re.compile(rb"""style\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
# What an attribute's name follows, as the browser's tokenizer starts one: a space, a
# slash or a quoted value's end.
_BEFORE_NAME = frozenset(b" \t\n\r\f/\"'")


def _in_tag(pattern: re.Pattern[bytes], page: bytes) -> Iterator[re.Match[bytes]]:
    return (m for m in pattern.finditer(page) if m.start() and page[m.start() - 1] in _BEFORE_NAME)


def _runs(node: LexborNode) -> bool:
    if node.tag == "meta":
        return (node.attributes.get("http-equiv") or "").strip().lower() == "refresh"
    return True


def _styled(css: str, *, sheet: bool = False) -> bool:
    css = "".join(css.split()).lower()
    return bool(_REWRITES.search(css) or (sheet and _HIDES.search(css)))


def shown_as_sent(html: str, tree: LexborHTMLParser | None = None) -> bool:
    """Whether the page ``html`` (``tree``, parsed already) shows its HTML as it is (see
    the module's rules)."""
    tree = LexborHTMLParser(html) if tree is None else tree
    if any(_runs(node) for node in tree.css(_RUNNING)):
        return False
    for link in tree.css("link[rel]"):
        if {"stylesheet", "import"} & set((link.attributes.get("rel") or "").lower().split()):
            return False
    if any(_styled(style.text(deep=True), sheet=True) for style in tree.css("style")):
        return False
    page = html.encode().lower()
    # A handler that may run without a person: on loading, on an error, on focus.
    if any("on" + m[1].decode() not in _ON_ACTION for m in _in_tag(_HANDLER, page)):
        return False
    return not any(
        _styled((m[1] or m[2] or m[3] or b"").decode(errors="replace"))
        for m in _in_tag(_STYLE, page)
    )
