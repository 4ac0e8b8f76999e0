"""The application factory: the only place the legacy site is wired together."""

from __future__ import annotations

from aiohttp import web

from portal.clock import Clock, system_clock
from portal.legacy import auth_views, reservations, reserve, schedule, testapi
from portal.legacy.middlewares import MIDDLEWARES
from portal.legacy.quirks import QuirkState
from portal.legacy.render import make_templates
from portal.legacy.sessions import Sessions
from portal.legacy.state import STATE, LegacyState
from portal.legacy.store import BookingBook

__all__ = ["create_app"]


def create_app(
    *, seed: int | None = 1, test_api: bool = False, clock: Clock | None = None
) -> web.Application:
    """Build the site: ``seed`` None or 0 means no seeded bookings; ``test_api`` mounts
    ``/_test/*``; ``clock`` returns "now" (Moscow time if naive)."""
    state = LegacyState(
        book=BookingBook(),
        sessions=Sessions(),
        quirks=QuirkState(),
        clock=clock or system_clock,
        seed=seed,
        templates=make_templates(),
    )
    state.reset(seed)
    app = web.Application(middlewares=MIDDLEWARES)
    app[STATE] = state
    app.add_routes(auth_views.routes)
    app.add_routes(schedule.routes)
    app.add_routes(reserve.routes)
    app.add_routes(reservations.routes)
    if test_api:
        app.add_routes(testapi.routes)
    return app
