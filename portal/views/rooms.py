"""The rooms page (form + empty grid) and the JSON the grid script loads."""

from __future__ import annotations

from datetime import date

from aiohttp import web

from portal.clock import CLOSE_MIN, OPEN_MIN, SLOT_MIN, fmt_hhmm, parse_date, slot_starts
from portal.data import BUILDINGS, Building, building
from portal.errors import UnknownObject
from portal.render import redirect, render, session_of
from portal.state import STATE

__all__ = ["routes"]

routes = web.RouteTableDef()


@routes.get("/")
async def index(request: web.Request) -> web.StreamResponse:
    return redirect("/rooms")


def _pick(request: web.Request) -> tuple[Building | None, date]:
    today = request.app[STATE].now().date()
    day = parse_date(request.query.get("date", "")) or today
    try:
        return building(request.query.get("building", "main")), day
    except UnknownObject:
        return None, day


@routes.get("/rooms")
async def rooms_page(request: web.Request) -> web.StreamResponse:
    chosen, day = _pick(request)
    return render(
        request,
        "rooms.html",
        buildings=BUILDINGS,
        chosen=chosen,
        day=day,
        error=None if chosen else "Такого корпуса нет. Выберите корпус из списка.",
        times=[fmt_hhmm(m) for m in slot_starts()],
    )


@routes.get("/api/availability")
async def availability(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    chosen, day = _pick(request)
    if chosen is None:
        return web.json_response({"error": "unknown building"}, status=404)
    user = session_of(request).user
    busy: dict[str, list[dict[str, object]]] = {r.id: [] for r in chosen.rooms}
    if state.quirks.quirks.full_building == chosen.code:
        whole_day = {"start": fmt_hhmm(OPEN_MIN), "end": fmt_hhmm(CLOSE_MIN), "mine": False}
        busy = {room_id: [whole_day] for room_id in busy}
    else:
        for booking in await state.store.active_on(chosen.code, day):
            busy[booking.room_id].append(
                {"start": booking.start, "end": booking.end, "mine": booking.user == user}
            )
    return web.json_response(
        {
            "building": {"code": chosen.code, "name": chosen.name},
            "date": day.isoformat(),
            "open": fmt_hhmm(OPEN_MIN),
            "close": fmt_hhmm(CLOSE_MIN),
            "slot_minutes": SLOT_MIN,
            "rooms": [
                {
                    "id": r.id,
                    "number": r.number,
                    "floor": r.floor,
                    "capacity": r.capacity,
                    "busy": busy[r.id],
                }
                for r in chosen.rooms
            ],
        }
    )
