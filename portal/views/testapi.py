"""``/_test/*``: inspection and chaos controls, mounted only with ``test_api=True``."""

from __future__ import annotations

import json

from aiohttp import web

from portal.data import seed_bookings
from portal.errors import QuirkConfigError
from portal.quirks import Quirks
from portal.state import STATE

__all__ = ["routes"]

routes = web.RouteTableDef()


async def _json_body(request: web.Request) -> object:
    text = await request.text()
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise web.HTTPBadRequest(text=f"bad JSON: {exc}") from exc


@routes.get("/_test/bookings")
async def bookings(request: web.Request) -> web.StreamResponse:
    found = await request.app[STATE].store.all()
    return web.json_response([b.as_json() for b in found])


@routes.post("/_test/reset")
async def reset(request: web.Request) -> web.StreamResponse:
    """Bookings reseeded (``{"seed": N}``, default: the app's seed); sessions and quirks cleared."""
    state = request.app[STATE]
    body = await _json_body(request)
    seed = body.get("seed", state.seed) if isinstance(body, dict) else state.seed
    if seed is not None and not isinstance(seed, int):
        raise web.HTTPBadRequest(text="seed must be an integer or null")
    await state.store.reset(seed_bookings(seed, state.now().date()))
    state.sessions.clear()
    state.quirks.apply(Quirks())
    return web.json_response({"ok": True, "seed": seed})


@routes.post("/_test/expire_sessions")
async def expire_sessions(request: web.Request) -> web.StreamResponse:
    """Every login session ends, as when the portal restarts or a session times out."""
    request.app[STATE].sessions.clear()
    return web.json_response({"ok": True})


@routes.get("/_test/quirks")
async def get_quirks(request: web.Request) -> web.StreamResponse:
    """The active quirks and what they did so far (``served``)."""
    state = request.app[STATE].quirks
    return web.json_response({**state.quirks.as_json(), "served": state.served()})


@routes.get("/_test/cancels")
async def cancels(request: web.Request) -> web.StreamResponse:
    """Every cancel request received since the quirks were last set ("POST /my/… by user")."""
    return web.json_response(list(request.app[STATE].quirks.cancels))


@routes.post("/_test/quirks")
async def set_quirks(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    try:
        quirks = Quirks.from_json(await _json_body(request))
    except QuirkConfigError as exc:
        return web.json_response({"error": str(exc)}, status=400)
    state.quirks.apply(quirks)
    return web.json_response(quirks.as_json())
