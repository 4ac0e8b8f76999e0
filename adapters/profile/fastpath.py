"""The fast path of a booking: the form's own request (``book.request``) sent through the
logged-in browser context's request API, without loading, filling and submitting the
form in the page. The session's cookies go with it; a CSRF token is read from the form's
page, fetched as plain HTML (a form field's value, or a ``<meta>`` for a JSON call).

The token read is kept for the account's later sessions while the context sends the
same cookies (the site's session the token belongs to: a site may take a token only from
its own session, and the legacy site ends a session sent another's): the form's page is
then not fetched. A refusal of a kept token fetches the page: a token that is no longer
the page's (its time ran out, the site made a new one) is replaced and the booking sent
once more; the same token means the refusal was the booking's. An answer that leaves
the outcome unknown drops the kept token: the booking sent again reads the page's.

Only a booking made as the profile says is a booking made: a redirect to the booking's
address (a form post), or a success whose JSON has the booking's number (a JSON call).
What else the site answers decides what happens next, as safely as the page path would:
- the form's page not given (a redirect: the login, a notice), a room the site's list
  of keys does not have, or a refusal (4xx: the form shown again with the site's
  message, or a JSON error): nothing was made, the page path takes over (it logs in
  again, meets the notice, or reads the site's message);
- a 5xx, no answer, any other answer: ``OutcomeUnknown`` — «my bookings» is looked at
  before anything is sent again (``send_once``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import structlog
from playwright.async_api import APIResponse, BrowserContext
from playwright.async_api import Error as PlaywrightError

from adapters.profile.caller import Caller
from adapters.profile.calls import HeaderToken, Request, RoomKeys
from adapters.profile.form import booked_number
from adapters.profile.jsonpath import json_at
from adapters.profile.login import asks_login_in
from adapters.profile.navigate import Navigator
from adapters.profile.pagehtml import fetch_html, form_value, meta_content
from adapters.profile.recall import KeptToken, Recall
from core.site.errors import OutcomeUnknown

__all__ = ["FastPath"]

log = structlog.get_logger("clubman.portal")

_UNKNOWN = "Сайт не ответил на бронирование как обычно: результат неизвестен"


class FastPath:
    """The booking request of one session."""

    def __init__(
        self,
        nav: Navigator,
        context: BrowserContext,
        request: Request,
        caller: Caller,
        recall: Recall,
    ) -> None:
        self._nav = nav
        self._context = context
        self._api = context.request
        self._request = request
        self._caller = caller  # the site's list of rooms, shared with the session's calls
        self._recall = recall  # the token, kept for the account's later sessions

    async def send(self, values: Mapping[str, Any]) -> str | None:
        """The new booking's number, or None when nothing was made and the page path is
        to book instead; ``OutcomeUnknown`` when the request may have made it."""
        request = self._request
        values = dict(values)
        if request.room_keys is not None:
            key = await self._room_key(request.room_keys, str(values.get("room_id", "")))
            if key is None:
                return None
            values["room_key"] = key
        address = self._nav.url(request.url, values)
        if request.token is None:
            return await self._outcome(address, await self._post(address, values, None))
        cookies = await self._cookies(address)
        kept = self._recall.token
        if kept is not None and kept.cookies != cookies:
            kept = None  # another session's: never sent
        if kept is not None:
            try:
                answer = await self._post(address, values, kept.value)
                if not 400 <= answer.status < 500:
                    return await self._outcome(address, answer)
            except OutcomeUnknown:
                # A site may answer a token it no longer takes with a 5xx or a page of its
                # own: the booking sent again reads the form's token, as a first one does.
                self._recall.token = None
                raise
        # None kept, or refused: the token or the booking? The form's page tells.
        token = await self._token(request.token, values)
        if token is None:
            self._recall.token = None
            return None
        self._recall.token = KeptToken(cookies, token)
        if kept is not None and token == kept.value:
            log.info("profile.fast_path_refused", status=answer.status)
            return None
        return await self._outcome(address, await self._post(address, values, token))

    async def _post(
        self, address: str, values: Mapping[str, Any], token: str | None
    ) -> APIResponse:
        request = self._request
        fields = request.form if request.form is not None else request.json_fields or {}
        body: dict[str, str] = {name: t.render(values) for name, t in fields.items()}
        headers: dict[str, str] = {}
        if isinstance(request.token, HeaderToken) and token is not None:
            headers = {request.token.header: token, "X-Requested-With": "XMLHttpRequest"}
        elif isinstance(request.token, str) and token is not None:
            body[request.token] = token
        try:
            return await self._api.fetch(
                address,
                method=request.method,
                headers=headers,
                max_redirects=0,
                form=dict(body) if request.form is not None else None,
                data=dict(body) if request.form is None else None,  # sent as JSON
            )
        except PlaywrightError as exc:
            raise OutcomeUnknown(_UNKNOWN) from exc

    async def _outcome(self, address: str, answer: APIResponse) -> str | None:
        request = self._request
        status = answer.status
        if request.number is not None and answer.ok:
            return await self._json_number(answer, request.number)
        if 300 <= status < 400:
            where = urljoin(address, answer.headers.get("location", ""))
            number = booked_number(self._nav.profile.book.booked, where)
            if number is not None and request.form is not None:
                return number
            if self._nav.is_login_path(urlsplit(where).path):  # logged out: the page path logs in
                return None
        if 400 <= status < 500:
            log.info("profile.fast_path_refused", status=status)
            return None
        raise OutcomeUnknown(f"{_UNKNOWN} (HTTP {status})")

    async def _cookies(self, address: str) -> str:
        """A digest of the cookies the context sends to ``address``: the site's session."""
        sent = sorted(
            (c["name"], c["value"], c["domain"], c["path"])
            for c in await self._context.cookies(address)
        )
        return hashlib.sha256(repr(sent).encode()).hexdigest()

    async def _json_number(self, answer: APIResponse, path: str) -> str:
        try:
            number = json_at(await answer.json(), path)
        except (PlaywrightError, ValueError) as exc:
            raise OutcomeUnknown(f"{_UNKNOWN} (no JSON)") from exc
        if isinstance(number, int | str) and not isinstance(number, bool) and str(number):
            return str(number)
        raise OutcomeUnknown(f"{_UNKNOWN} (no «{path}» in the answer)")

    async def _token(self, token: str | HeaderToken, values: Mapping[str, Any]) -> str | None:
        """The token from the form's page, or None when that page is not given."""
        book = self._nav.profile.book
        if book.open.url is None:
            return None
        # Not given (a redirect: the login, a notice), nothing sent yet: the page path
        # meets whatever this was.
        page = await fetch_html(self._api, self._nav.url(book.open.url, values))
        if page is None:
            log.info("profile.fast_path_skipped", why="the form's page not given")
            return None
        if asks_login_in(self._nav, page.text):  # its token would be the login form's
            log.info("profile.fast_path_skipped", why="the login form in place")
            return None
        found = (
            meta_content(page.text, token.meta)
            if isinstance(token, HeaderToken)
            else form_value(page.text, token)
        )
        if not found:
            log.info("profile.fast_path_skipped", why="no token on the form's page")
            return None
        return found

    async def _room_key(self, keys: RoomKeys, room_id: str) -> str | None:
        listed = await self._caller.room_keys(keys)
        if listed is None or not room_id:
            return None  # nothing sent yet: the page path books
        found = {
            key for name, key in listed.items() if name == room_id or name.startswith(room_id + " ")
        }
        return found.pop() if len(found) == 1 else None
