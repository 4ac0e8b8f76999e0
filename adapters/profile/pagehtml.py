"""Values read from a page's HTML as plain text (no browser): a form field's value (a CSRF
token) and a ``<meta>``'s content (a JSON call's token)."""

from __future__ import annotations

import re
from html import unescape

__all__ = ["form_value", "meta_content"]

_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def form_value(html: str, name: str) -> str | None:
    """The value of the input named ``name`` in ``html``."""
    for tag in _INPUT.findall(html):
        attributes = {m[0].lower(): unescape(m[1] or m[2] or m[3]) for m in _ATTRIBUTE.findall(tag)}
        if attributes.get("name") == name:
            return attributes.get("value", "")
    return None


def meta_content(html: str, name: str) -> str | None:
    """The content of the ``<meta name=…>`` in ``html``."""
    for tag in _META.findall(html):
        attributes = {m[0].lower(): unescape(m[1] or m[2] or m[3]) for m in _ATTRIBUTE.findall(tag)}
        if attributes.get("name") == name:
            return attributes.get("content")
    return None
