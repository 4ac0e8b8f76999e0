"""The fast path of a booking: the form's own POST (``book.request``) sent through the
logged-in browser context's request API, without loading, filling and submitting the
form in the page. The session's cookies go with it; a CSRF token the form carries is
read from the form's page, fetched as plain HTML.

Only a redirect to the booking's address is a booking made. What else the site answers
decides what happens next, as safely as the page path would:
- the form's page not given (a redirect: the login, a notice) or a refusal (4xx: the
  form shown again with the site's message): nothing was made, the page path takes over
  (it logs in again, meets the notice, or reads the site's message);
- a 5xx, no answer, any other answer: ``OutcomeUnknown`` — «my bookings» is looked at
  before anything is sent again (``send_once``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import unescape
from typing import Any
from urllib.parse import urljoin, urlsplit

import structlog
from playwright.async_api import APIRequestContext
from playwright.async_api import Error as PlaywrightError

from adapters.profile.form import booked_number
from adapters.profile.model import Request
from adapters.profile.navigate import Navigator
from core.booking.errors import OutcomeUnknown

__all__ = ["send_request"]

log = structlog.get_logger("clubman.portal")

_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_UNKNOWN = "Сайт не ответил на бронирование как обычно: результат неизвестен"


def form_value(html: str, name: str) -> str | None:
    """The value of the input named ``name`` in ``html``."""
    for tag in _INPUT.findall(html):
        attributes = {m[0].lower(): unescape(m[1] or m[2] or m[3]) for m in _ATTRIBUTE.findall(tag)}
        if attributes.get("name") == name:
            return attributes.get("value", "")
    return None


async def send_request(
    nav: Navigator, api: APIRequestContext, request: Request, values: Mapping[str, Any]
) -> str | None:
    """The new booking's number, or None when nothing was made and the page path is to
    book instead; ``OutcomeUnknown`` when the request may have made it."""
    book = nav.profile.book
    form: dict[str, str | float | bool] = {
        name: template.render(values) for name, template in request.form.items()
    }
    if request.token is not None and book.open.url is not None:
        try:
            page = await api.get(nav.url(book.open.url, values), max_redirects=0)
            token = form_value(await page.text(), request.token) if page.ok else None
        except PlaywrightError:
            return None  # nothing sent yet: the page path meets whatever this was
        if token is None:
            log.info("profile.fast_path_skipped", status=page.status)
            return None
        form[request.token] = token
    address = nav.url(request.url, values)
    try:
        answer = await api.fetch(address, method=request.method, form=form, max_redirects=0)
    except PlaywrightError as exc:
        raise OutcomeUnknown(_UNKNOWN) from exc
    status = answer.status
    if 300 <= status < 400:
        where = urljoin(address, answer.headers.get("location", ""))
        number = booked_number(book.booked, where)
        if number is not None:
            return number
        if nav.is_login_path(urlsplit(where).path):  # logged out: the page path logs in
            return None
    if 400 <= status < 500:
        log.info("profile.fast_path_refused", status=status)
        return None
    raise OutcomeUnknown(f"{_UNKNOWN} (HTTP {status})")
