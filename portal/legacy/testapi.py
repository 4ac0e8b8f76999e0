"""``/_test/*``: the reference portal's inspection and chaos paths, with its JSON shapes.

``GET /_test/bookings`` every booking (``Booking.as_json``); ``POST /_test/reset``
(``{"seed": N}`` optional, default the site's seed) reseeds, ends every session and
clears the quirks; ``POST /_test/expire_sessions``; ``GET``/``POST /_test/quirks``.
"""

from __future__ import annotations

import json

from aiohttp import web

from portal.legacy.quirks import BadQuirks, Quirks
from portal.legacy.state import STATE

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
    return web.json_response([b.as_json() for b in request.app[STATE].book.all()])


@routes.post("/_test/reset")
async def reset(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    body = await _json_body(request)
    seed = body.get("seed", state.seed) if isinstance(body, dict) else state.seed
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise web.HTTPBadRequest(text="seed must be an integer or null")
    state.reset(seed)
    return web.json_response({"ok": True, "seed": seed})


@routes.post("/_test/expire_sessions")
async def expire_sessions(request: web.Request) -> web.StreamResponse:
    request.app[STATE].sessions.end_all()
    return web.json_response({"ok": True})


@routes.get("/_test/quirks")
async def get_quirks(request: web.Request) -> web.StreamResponse:
    quirks = request.app[STATE].quirks
    served = {"errors_served": quirks.errors_served}
    return web.json_response({**quirks.quirks.as_json(), "served": served})


@routes.post("/_test/quirks")
async def set_quirks(request: web.Request) -> web.StreamResponse:
    try:
        quirks = Quirks.from_json(await _json_body(request))
    except BadQuirks as exc:
        return web.json_response({"error": str(exc)}, status=400)
    request.app[STATE].quirks.apply(quirks)
    return web.json_response(quirks.as_json())
