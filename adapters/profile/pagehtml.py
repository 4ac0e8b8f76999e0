"""A page's HTML fetched without a browser (through the logged-in context's request
API), and values read from it as plain text: a form field's value (a CSRF token) and a
``<meta>``'s content (a JSON call's token)."""

from __future__ import annotations

import re
from html import unescape
from typing import NamedTuple

from playwright.async_api import APIRequestContext
from playwright.async_api import Error as PlaywrightError

__all__ = ["PageHtml", "fetch_html", "form_value", "meta_content"]

_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


class PageHtml(NamedTuple):
    text: str
    charset: str  # the answer's (its Content-Type), "" when it names none


async def fetch_html(api: APIRequestContext, address: str) -> PageHtml | None:
    """The page at ``address`` as the server sends it; None when it answers anything but
    a success (a redirect to the login or a notice included), does not answer, or is not
    UTF-8 (the request API reads it so: another charset's text would come out garbled)."""
    try:
        answer = await api.get(address, max_redirects=0)
        if not answer.ok:
            return None
        text = await answer.text()
    except PlaywrightError:
        return None
    declared = _CHARSET.search(answer.headers.get("content-type", ""))
    charset = declared[1].lower() if declared else ""
    if charset not in ("", "utf-8", "utf8") or "\ufffd" in text:
        return None
    return PageHtml(text, charset)


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
