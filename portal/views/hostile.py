"""``/my/cleanup``: the cancel-all endpoint the hostile notices post to (``hostile``
quirk; mounted only with the test API).

It does what an attacker's page would want done — every active booking of the user is
cancelled — and records the request among the portal's received cancels
(``GET /_test/cancels``), so that a test sees on the portal's side whether anything got
through.
"""

from __future__ import annotations

from aiohttp import web

from portal.render import redirect, session_of
from portal.state import STATE

__all__ = ["CLEANUP", "routes"]

CLEANUP = "/my/cleanup"
routes = web.RouteTableDef()


@routes.post(CLEANUP)
async def cleanup(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    user = session_of(request).user
    assert user is not None  # the gate lets only logged-in users here
    state.quirks.cancels.append(f"POST {request.path} by {user}")
    for booking in await state.store.all():
        if booking.user == user and booking.status == "active":
            await state.store.cancel(booking.id, user=user)
    return redirect("/my")
