"""One building's day by the call its page makes (``availability.request``), on the fast
path: what holds each room, without drawing the day's page (on Indico, a timeline its
scripts build in seconds; on the reference portal, the grid its script draws). The call
is sent the building's rooms (Indico) or names the building and lists its rooms in the
answer (the portal). The session's cookies go with the call; a CSRF token is read from
the day's page, fetched as plain HTML.

Only an answer as the profile describes it is the day: for the day asked, a part for
every room asked about, every room and busy time where the profile says and readable.
Anything else (logged out, a changed answer) gives None, and the page is read as without
the call: a busy time read as free would offer a taken room.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

import structlog

from adapters.profile.caller import Caller
from adapters.profile.calls import DayRequest, RoomFields, RoomKeys, Span
from adapters.profile.jsonpath import every_at, json_at, scalar_text
from adapters.profile.model import RoomPicks
from adapters.profile.navigate import Navigator
from adapters.profile.patterns import search
from adapters.profile.reading import Item, first_group, probes_of, room_of, value
from core.site.models import Interval, Room, merge_intervals
from scenarios.booking.models import Availability, RoomAvailability

__all__ = ["DayCall", "busy_in"]

log = structlog.get_logger("clubman.portal")
_SKIPPED = "profile.day_call_skipped"
_DAY_END = time(23, 59)  # as the pages read «24:00»
_MINUTE = timedelta(minutes=1)


class _Unreadable(ValueError):
    """A busy time the profile says is there and is not readable."""


class DayCall:
    """A building's day by its page's own call."""

    def __init__(self, nav: Navigator, caller: Caller, request: DayRequest) -> None:
        self._nav = nav
        self._caller = caller
        self._request = request

    @classmethod
    def of(cls, nav: Navigator, caller: Caller) -> DayCall | None:
        """The profile's call for a building's day, if it describes one."""
        request = nav.profile.availability.request
        return None if request is None else cls(nav, caller, request)

    async def read(self, building: str, name: str, day: date) -> Availability | None:
        """What holds each room of ``building`` (its code; ``name`` as shown) on ``day``,
        or None when the answer is not as the profile describes it."""
        request, values = self._request, {"building": building, "date": day}
        if request.room is not None:
            listed = await self._named(values, request.room, day)
        else:
            assert request.rooms is not None and request.keys is not None  # the model's rule
            listed = await self._sent(values, request.rooms, request.keys, day)
        if listed is None:
            return None
        rules = self._nav.profile.rules
        return Availability(building=building, building_name=name, day=day,
                            opens=rules.opens, closes=rules.closes, rooms=listed)  # fmt: skip

    async def _call(self, values: dict[str, Any], body: Any) -> Any | None:
        """The call's answer, if it is for the day asked (when it says which day it is)."""
        request = self._request
        data = await self._caller.json(
            request.url, values, method=request.method, token=request.token,
            token_page=self._nav.profile.availability.open.url, event=_SKIPPED, body=body,
        )  # fmt: skip
        if data is None or request.day is None:
            return data
        if json_at(data, request.day) != values["date"].isoformat():
            log.info(_SKIPPED, why="an answer for another day")
            return None
        return data

    async def _named(
        self, values: dict[str, Any], fields: RoomFields, day: date
    ) -> list[RoomAvailability] | None:
        """The rooms the answer lists for the building the call names, each as it says."""
        data = await self._call(values, None)
        if data is None:
            return None
        lines = every_at(data, self._request.lines)
        try:
            if not lines:
                raise _Unreadable("no room")
            listed = [
                RoomAvailability(
                    room=_room_in(line, fields, values["building"]),
                    busy=merge_intervals(_busy_of(line, self._request, day)),
                )
                for line in lines
            ]
        except _Unreadable:
            log.info(_SKIPPED, why="an answer unlike the profile's")
            return None
        return listed

    async def _sent(
        self, values: dict[str, Any], site_rooms: RoomKeys, keys: str, day: date
    ) -> list[RoomAvailability] | None:
        """The building's rooms of the site's list, sent to the call by their keys."""
        building = values["building"]
        names = await self._caller.room_names(site_rooms, event=_SKIPPED)
        if names is None:
            return None
        request = self._request
        rooms = {key: room for key, room in names.items() if _building(request, room) == building}
        if not rooms:
            log.info(_SKIPPED, why="no room of the building in the site's list")
            return None
        data = await self._call(values, {keys: sorted(rooms)})
        if data is None:
            return None
        held = busy_in(data, request, set(rooms), day)
        if held is None:
            log.info(_SKIPPED, why="an answer unlike the profile's")
            return None
        picks = self._picks
        listed = []
        for key, room in sorted(rooms.items(), key=lambda pair: pair[1]):
            item = Item(text=room, probes=dict.fromkeys(probes_of(_all(picks)), room))
            number = value(picks.number, item)
            if not number:
                continue  # as on the page: a line with no room number is no room
            site_id = value(picks.id, item) if picks.id else ""
            found = room_of(picks, item, building=building, number=number, site_id=site_id)
            listed.append(RoomAvailability(room=found, busy=held[key]))
        return listed

    @property
    def _picks(self) -> RoomPicks:
        shown = self._nav.profile.availability
        view = shown.timeline or shown.grid
        assert view is not None  # the model takes one of the two
        return view.room


def _all(picks: RoomPicks) -> list[Any]:
    return [picks.number, picks.id, picks.floor, picks.capacity]


def _building(request: DayRequest, room: str) -> str | None:
    assert request.building is not None  # the model's rule, with ``rooms``
    found = search(request.building, room)
    return first_group(found).strip() if found else None


def _room_in(line: Any, fields: RoomFields, building: str) -> Room:
    """The room a part of the answer names (``_Unreadable``: no number, or a floor or
    capacity that is no whole number)."""
    number = scalar_text(json_at(line, fields.number))
    if not number:
        raise _Unreadable(fields.number)
    site_id = scalar_text(json_at(line, fields.id)) if fields.id else ""
    return Room(
        id=site_id or f"{building}-{number}",
        building=building,
        number=number,
        floor=_whole(json_at(line, fields.floor)) if fields.floor else None,
        capacity=_whole(json_at(line, fields.capacity)) if fields.capacity else None,
    )


def _whole(found: Any) -> int | None:
    if found is None:
        return None
    if isinstance(found, bool) or not isinstance(found, int):
        raise _Unreadable(repr(found))
    return found


def busy_in(
    data: Any, request: DayRequest, keys: set[str], day: date
) -> dict[str, list[Interval]] | None:
    """Each room's busy times on ``day`` in a call's answer (by the site's key of the
    room), or None when a room asked about has no part, or anything is not where the
    profile says."""
    lines = every_at(data, request.lines)
    if lines is None:
        return None
    held: dict[str, list[Interval]] = {}
    for line in lines:
        key = json_at(line, request.key) if request.key is not None else None
        if key is None or str(key) not in keys:
            continue
        try:
            held[str(key)] = merge_intervals(_busy_of(line, request, day))
        except _Unreadable:
            return None
    return held if set(held) == keys else None


def _busy_of(line: Any, request: DayRequest, day: date) -> list[Interval]:
    """Every busy time of a room's part on ``day`` (``_Unreadable``: one is not where the
    profile says, or not a time)."""
    return [
        interval
        for span in request.busy
        for entry in _entries(line, span)
        if (interval := _interval(entry, span, day)) is not None
    ]


def _entries(line: Any, span: Span) -> list[Any]:
    entries = every_at(line, span.at)
    if entries is None:
        raise _Unreadable(span.at)
    return entries


def _interval(entry: Any, span: Span, day: date) -> Interval | None:
    """The entry's time on ``day`` (None: not on it)."""
    if span.start is None or span.end is None:
        return (time(0, 0), _DAY_END)
    start = _on(json_at(entry, span.start), day, up=False)
    end = _on(json_at(entry, span.end), day, up=True)
    return (start, end) if start < end else None  # else it ends before the day, or so


def _on(written: Any, day: date, *, up: bool) -> time:
    """A date-time cut to ``day`` (an end rounded up to the minute), or a time of day."""
    if not isinstance(written, str):
        raise _Unreadable(repr(written))
    try:
        moment = datetime.fromisoformat(written)
    except ValueError:
        try:
            clock = time.fromisoformat(written)
        except ValueError as exc:
            raise _Unreadable(written) from exc
        return _DAY_END if up and clock == time(0, 0) else clock
    if moment.date() < day:
        return time(0, 0)
    if moment.date() > day:
        return _DAY_END
    clock = moment.time().replace(second=0, microsecond=0)
    if up and moment.time() > clock and clock < _DAY_END:
        clock = (datetime.combine(day, clock) + _MINUTE).time()
    return clock
