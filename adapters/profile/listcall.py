"""«My bookings» by the call its page makes (``my_bookings.request``), on the fast path:
the same list the page would draw, without drawing it (on Indico, a page its scripts
build in seconds). The session's cookies go with the call; a CSRF token is read from the
list's page, fetched as plain HTML.

Only an answer as the profile describes it is a list: every booking with its number,
start, end, purpose, a room the site's list of rooms names (and who made it, where the
profile tells the account's own by their ``owner``: another's is left out), and fewer
than the most one answer lists. Anything
else (logged out, a changed answer) gives None, and the page is read as without the call:
a list read wrong would be a booking made twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import structlog

from adapters.profile.caller import Caller
from adapters.profile.calls import ListRequest
from adapters.profile.jsonpath import every_at, json_at, scalar_text
from adapters.profile.navigate import Navigator
from adapters.profile.owner import same_account
from adapters.profile.parts import Pick
from adapters.profile.patterns import search
from adapters.profile.reading import first_group
from scenarios.booking.models import Booking

__all__ = ["ListCall", "bookings_in"]

log = structlog.get_logger("clubman.portal")
_SKIPPED = "profile.list_call_skipped"


class ListCall:
    """«My bookings» by its page's own call."""

    def __init__(
        self, nav: Navigator, caller: Caller, request: ListRequest, *, account: str
    ) -> None:
        self._nav = nav
        self._caller = caller
        self._request = request
        self._account = account  # the login: whose bookings are the account's

    @classmethod
    def of(cls, nav: Navigator, caller: Caller, *, account: str) -> ListCall | None:
        """The profile's call for «my bookings», if it describes one."""
        request = nav.profile.my_bookings.request
        return None if request is None else cls(nav, caller, request, account=account)

    async def read(self) -> list[Booking] | None:
        """The user's bookings as the call answers them, buildings by the name the room's
        name gives; None when the answer is not as the profile describes it."""
        request, my = self._request, self._nav.profile.my_bookings
        names = await self._caller.room_names(request.rooms, event=_SKIPPED)
        if names is None:
            return None
        fields = request.json_fields
        data = await self._caller.json(
            request.url, {}, method=request.method, token=request.token,
            token_page=my.open.url, event=_SKIPPED,
            body=None if fields is None else {k: t.render({}) for k, t in fields.items()},
        )  # fmt: skip
        if data is None:
            return None
        assert my.building is not None and my.room is not None  # the model asks for them
        found = bookings_in(data, request, names, building=my.building, room=my.room,
                            owner=my.owner, account=self._account)  # fmt: skip
        if found is None:
            log.info(_SKIPPED, why="an answer unlike the profile's")
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


def bookings_in(
    data: Any,
    request: ListRequest,
    names: Mapping[str, str],
    *,
    building: tuple[Pick, ...],
    room: tuple[Pick, ...],
    owner: tuple[Pick, ...] | None = None,
    account: str = "",
) -> list[Booking] | None:
    """The bookings in a call's answer (``names``: the site's key of a room → its name,
    read by the ``building`` and ``room`` picks' regexes) that are ``account``'s (who made
    each, at ``request.owner``, read by the ``owner`` picks' regexes), or None when
    anything in it is not where the profile says."""
    items = every_at(data, request.items)
    if items is None or (request.at_most is not None and len(items) >= request.at_most):
        return None  # or the first part of a longer list: the page shows it all
    found = []
    for item in items:
        number, purpose = scalar_text(json_at(item, request.number)), json_at(item, request.purpose)
        name = names.get(str(json_at(item, request.room)))
        try:
            start = datetime.fromisoformat(str(json_at(item, request.start)))
            end = datetime.fromisoformat(str(json_at(item, request.end)))
        except ValueError:
            return None
        if (
            not number
            or not isinstance(purpose, str)
            or name is None
            or start.date() != end.date()
            or start >= end
        ):
            return None
        where = {"building": _read(building, name), "room": _read(room, name)}
        if not all(where.values()):
            return None
        if request.owner is not None:
            made_by = _read(owner or (Pick(),), scalar_text(json_at(item, request.owner)))
            if not made_by:
                return None  # nobody's: the answer is not as the profile says
            if not same_account(made_by, account):
                continue  # another's, found by a search naming the login
        found.append(
            Booking(
                number=number,
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


def _read(picks: tuple[Pick, ...], name: str) -> str:
    """The first alternative's part of ``name`` (a room's, a booking's owner's) that reads
    (the list's HTML is where a stand-in is told and promoted: this call is read outside
    any step)."""
    for pick in picks:
        if pick.regex is None:
            return name
        if found := search(pick.regex, name):
            return first_group(found).strip()
    return ""
