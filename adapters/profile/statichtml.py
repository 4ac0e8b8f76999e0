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
# An attribute as written in a tag: after a space, a slash or a quoted value's end (as the
# browser's tokenizer starts one), looked for over the whole text (one in a page's words
# only sends the page to the browser).
_HANDLER = re.compile(r"""[\s/"'](on[a-z]+)\s*=""", re.IGNORECASE)
_STYLE = re.compile(r"""[\s/"']style\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)


def _runs(node: LexborNode) -> bool:
    if node.tag == "meta":
        return (node.attributes.get("http-equiv") or "").strip().lower() == "refresh"
    return True


def _styled(css: str, *, sheet: bool = False) -> bool:
    css = "".join(css.split()).lower()
    return bool(_REWRITES.search(css) or (sheet and _HIDES.search(css)))


def shown_as_sent(html: str) -> bool:
    """Whether the page ``html`` shows its HTML as it is (see the module's rules)."""
    tree = LexborHTMLParser(html)
    if any(_runs(node) for node in tree.css(_RUNNING)):
        return False
    for link in tree.css("link[rel]"):
        if {"stylesheet", "import"} & set((link.attributes.get("rel") or "").lower().split()):
            return False
    if any(_styled(style.text(deep=True), sheet=True) for style in tree.css("style")):
        return False
    # A handler that may run without a person: on loading, on an error, on focus.
    if any(m[1].lower() not in _ON_ACTION for m in _HANDLER.finditer(html)):
        return False
    return not any(_styled(m[1] or m[2] or m[3] or "") for m in _STYLE.finditer(html))
