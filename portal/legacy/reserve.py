"""``/reserve``: the booking form (times as seconds since midnight) and its POST."""

from __future__ import annotations

from aiohttp import web

from portal.legacy.data import Room, find_building, find_room
from portal.legacy.render import redirect, render, session_of
from portal.legacy.rules import MAX_COMMENT, Refused, check
from portal.legacy.state import STATE
from portal.legacy.timefmt import STEP_SEC, end_choices, fmt_dmy, fmt_hhmm, start_choices

__all__ = ["routes"]

routes = web.RouteTableDef()

_DEFAULT_START = 18 * 3600
_FIELDS = ("day", "time_from", "time_to", "comment", "people")


def _room(raw: str) -> Room:
    found = find_room(int(raw)) if raw.strip().isdigit() else None
    if found is None:
        raise web.HTTPNotFound()
    return found


def _options(choices: list[int], current: str) -> list[tuple[str, str]]:
    """``(value, text)`` pairs; a value off the list stays on it, so the server says no."""
    options = [(str(s), fmt_hhmm(s)) for s in choices]
    if current and current not in {value for value, _ in options}:
        text = fmt_hhmm(int(current)) if current.isdigit() and int(current) < 86400 else current
        options.insert(0, (current, text))
    return options


def _form(
    request: web.Request, room: Room, values: dict[str, str], error: Refused | None = None
) -> web.Response:
    return render(
        request,
        "reserve.html",
        status=200 if error is None else error.status,
        room=room,
        building=find_building(room.building_id),
        values=values,
        starts=_options(start_choices(), values["time_from"]),
        ends=_options(end_choices(), values["time_to"]),
        max_comment=MAX_COMMENT,
        error=error,
    )


@routes.get("/reserve")
async def reserve_form(request: web.Request) -> web.StreamResponse:
    room = _room(request.query.get("room", ""))
    t = request.query.get("t", "").strip()
    start = int(t) if t.isdigit() and len(t) <= 6 else _DEFAULT_START
    values = {
        "day": request.query.get("day", "") or fmt_dmy(request.app[STATE].now().date()),
        "time_from": str(start),
        "time_to": str(start + STEP_SEC),
        "comment": "",
        "people": "",
    }
    return _form(request, room, values)


@routes.post("/reserve")
async def reserve(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    form = await request.post()
    room = _room(str(form.get("room", "")))
    values = {name: str(form.get(name, "")) for name in _FIELDS}
    user = session_of(request).user
    assert user is not None  # the gate lets only logged-in users here
    try:
        checked = check(
            room=room,
            day=values["day"],
            start=values["time_from"],
            end=values["time_to"],
            comment=values["comment"],
            people=values["people"],
            now=state.now(),
        )
        created = state.book.create(user, checked)
    except Refused as exc:
        return _form(request, room, values, exc)
    if "in_place" in state.quirks.quirks.drift:  # made, and its number not shown
        return render(request, "accepted.html")
    return redirect(f"/reservation/{created.id}")
