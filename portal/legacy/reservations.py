"""A booking's page, «Мои брони» as a text search, and cancelling."""

from __future__ import annotations

from datetime import timedelta

from aiohttp import web

from portal.legacy.render import redirect, render, session_of
from portal.legacy.state import STATE
from portal.legacy.store import Booking

__all__ = ["routes"]

routes = web.RouteTableDef()


def _own(request: web.Request) -> Booking:
    """The logged-in user's booking named in the path, or 404 (also for others' bookings)."""
    user = session_of(request).user
    found = request.app[STATE].book.get(int(request.match_info["booking_id"]))
    if found is None or found.user != user:
        raise web.HTTPNotFound()
    return found


@routes.get(r"/reservation/{booking_id:\d+}")
async def reservation(request: web.Request) -> web.StreamResponse:
    return render(request, "reservation.html", booking=_own(request))


@routes.get("/my")
async def my_bookings(request: web.Request) -> web.StreamResponse:
    """The search form; the table only after a search (``?q=`` lists everything)."""
    state = request.app[STATE]
    user = session_of(request).user
    assert user is not None
    query = request.query.get("q")
    found = None
    if query is not None:
        today = state.now().date()
        found = state.book.search(user, query, today=today)
        if "short_list" in state.quirks.quirks.drift:  # only today's and tomorrow's
            found = [b for b in found if b.day <= today + timedelta(days=1)]
    return render(request, "my.html", query=query, found=found)


@routes.post(r"/reservation/{booking_id:\d+}/cancel")
async def cancel(request: web.Request) -> web.StreamResponse:
    booking = _own(request)
    request.app[STATE].book.cancel(booking.id, user=booking.user)
    return redirect("/my?q=")
