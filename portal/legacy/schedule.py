"""``/schedule?bld=<id>&day=<DD.MM.YYYY>``: the day grid of one building."""

from __future__ import annotations

from aiohttp import web

from portal.legacy.data import BUILDINGS, find_building
from portal.legacy.grid import build_grid, room_meta
from portal.legacy.render import render, session_of
from portal.legacy.state import STATE
from portal.legacy.timefmt import parse_dmy

__all__ = ["routes"]

routes = web.RouteTableDef()


@routes.get("/schedule")
async def schedule(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    bld_text = request.query.get("bld", "").strip() or str(BUILDINGS[0].id)
    chosen = find_building(int(bld_text)) if bld_text.isdigit() else None
    if chosen is None:
        raise web.HTTPNotFound()
    error = None
    day_text = request.query.get("day", "").strip()
    day = parse_dmy(day_text) if day_text else state.now().date()
    if day is None:
        error = "Неверная дата: используйте формат ДД.ММ.ГГГГ."
        day = state.now().date()
    rows = build_grid(chosen.rooms, state.book.active_on(chosen.id, day), session_of(request).user)
    return render(
        request,
        "schedule.html",
        buildings=BUILDINGS,
        chosen=chosen,
        day=day,
        rows=rows,
        room_meta=room_meta,
        error=error,
    )
