"""«My bookings» by the call its page makes (``my_bookings.request``), on the fast path:
the same list the page would draw, without drawing it (on Indico, a page its scripts
build in seconds). The session's cookies go with the call; a CSRF token is read from the
list's page, fetched as plain HTML.

Only an answer as the profile describes it is a list: every booking with its number,
start, end, purpose and a room the site's list of rooms names, and fewer than the most
one answer lists. Anything
else (logged out, a changed answer) gives None, and the page is read as without the call:
a list read wrong would be a booking made twice.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import structlog
from playwright.async_api import APIRequestContext
from playwright.async_api import Error as PlaywrightError

from adapters.profile.calls import ListRequest
from adapters.profile.fastpath import meta_content, room_keys
from adapters.profile.jsonpath import every_at, json_at
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Pick
from adapters.profile.reading import first_group
from scenarios.booking.models import Booking

__all__ = ["ListCall", "bookings_in"]

log = structlog.get_logger("clubman.portal")


class ListCall:
    """«My bookings» by its page's own call; the site's room names are read once."""

    def __init__(self, nav: Navigator, api: APIRequestContext, request: ListRequest) -> None:
        self._nav = nav
        self._api = api
        self._request = request
        self._names: dict[str, str] | None = None  # the site's key of a room → its name

    @classmethod
    def of(cls, nav: Navigator, api: APIRequestContext) -> ListCall | None:
        """The profile's call for «my bookings», if it describes one."""
        request = nav.profile.my_bookings.request
        return None if request is None else cls(nav, api, request)

    async def read(self) -> list[Booking] | None:
        """The user's bookings as the call answers them, buildings by the name the room's
        name gives; None when the answer is not as the profile describes it."""
        request = self._request
        if self._names is None:
            keys = await room_keys(self._nav, self._api, request.rooms)
            if keys is None:
                _skipped("no list of rooms")
                return None
            self._names = {key: name for name, key in keys.items()}
        headers: dict[str, str] = {}
        if request.token is not None:
            token = await self._token(request.token.meta)
            if token is None:
                _skipped("no token")
                return None
            headers = {request.token.header: token, "X-Requested-With": "XMLHttpRequest"}
        fields = request.json_fields
        try:
            answer = await self._api.fetch(
                self._nav.url(request.url, {}),
                method=request.method,
                headers=headers,
                max_redirects=0,
                data=None if fields is None else {k: t.render({}) for k, t in fields.items()},
            )
            data = await answer.json() if answer.ok else None
        except (PlaywrightError, ValueError):
            _skipped("no JSON")
            return None
        if data is None:
            _skipped(f"HTTP {answer.status}")
            return None
        my = self._nav.profile.my_bookings
        assert my.building is not None and my.room is not None  # the model asks for them
        found = bookings_in(data, request, self._names, building=my.building, room=my.room)
        if found is None:
            _skipped("an answer unlike the profile's")
        return found

    async def in_full(
        self, codes: Callable[[set[str]], Awaitable[dict[str, str]]]
    ) -> list[Booking] | None:
        """As ``read``, buildings by the site's codes (``codes``: the names shown → name →
        code)."""
        listed = await self.read()
        if listed is None:
            return None
        known = await codes({b.building_name for b in listed}) if listed else {}
        return [
            b.model_copy(update={"building": known.get(b.building, b.building)}) for b in listed
        ]

    async def _token(self, meta: str) -> str | None:
        opened = self._nav.profile.my_bookings.open.url
        if opened is None:
            return None
        try:
            page = await self._api.get(self._nav.url(opened, {}), max_redirects=0)
            html = await page.text() if page.ok else ""
        except PlaywrightError:
            return None
        return meta_content(html, meta) or None


def _skipped(why: str) -> None:
    log.info("profile.list_call_skipped", why=why)


def bookings_in(
    data: Any, request: ListRequest, names: Mapping[str, str], *, building: Pick, room: Pick
) -> list[Booking] | None:
    """The bookings in a call's answer (``names``: the site's key of a room → its name,
    read by the ``building`` and ``room`` picks' regexes), or None when anything in it is
    not where the profile says."""
    items = every_at(data, request.items)
    if items is None or (request.at_most is not None and len(items) >= request.at_most):
        return None  # or the first part of a longer list: the page shows it all
    found = []
    for item in items:
        number, purpose = json_at(item, request.number), json_at(item, request.purpose)
        name = names.get(str(json_at(item, request.room)))
        try:
            start = datetime.fromisoformat(str(json_at(item, request.start)))
            end = datetime.fromisoformat(str(json_at(item, request.end)))
        except ValueError:
            return None
        if (
            not isinstance(number, int | str)
            or isinstance(number, bool)
            or not str(number)
            or not isinstance(purpose, str)
            or name is None
            or start.date() != end.date()
            or start >= end
        ):
            return None
        where = {"building": _read(building, name), "room": _read(room, name)}
        if not all(where.values()):
            return None
        found.append(
            Booking(
                number=str(number),
                building=where["building"],
                building_name=where["building"],
                room=where["room"],
                room_id="",  # as the page's list: the site's id of the room is not read
                day=start.date(),
                start=start.time(),
                end=end.time(),
                purpose=purpose,
                status="active",
            )
        )
    return found


def _read(pick: Pick, name: str) -> str:
    if pick.regex is None:
        return name
    found = re.search(pick.regex, name)
    return first_group(found).strip() if found else ""
