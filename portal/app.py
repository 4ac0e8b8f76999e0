"""The application factory: the only place the portal is wired together."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from portal.auth import SessionStore
from portal.clock import Clock, now_msk, system_clock
from portal.data import seed_bookings
from portal.db import BookingStore
from portal.middlewares import MIDDLEWARES
from portal.quirks import QuirkState
from portal.render import make_templates
from portal.state import STATE, PortalState
from portal.views import auth, booking, hostile, rooms, testapi

__all__ = ["create_app"]

_STATIC = Path(__file__).parent / "static"


def create_app(
    *,
    db: str = ":memory:",
    seed: int | None = 1,
    test_api: bool = False,
    clock: Clock | None = None,
) -> web.Application:
    """Build the portal.

    ``db`` is an SQLite path or ``:memory:``; ``seed`` None or 0 means no seeded
    bookings (a file database that already has bookings is never reseeded);
    ``test_api`` mounts ``/_test/*``; ``clock`` returns "now" (Moscow time if naive).
    """
    clock = clock or system_clock
    store = BookingStore(db)
    store.seed_if_empty_sync(seed_bookings(seed, now_msk(clock).date()))
    app = web.Application(middlewares=MIDDLEWARES)
    app[STATE] = PortalState(
        store=store,
        sessions=SessionStore(),
        quirks=QuirkState(),
        clock=clock,
        seed=seed,
        test_api=test_api,
        templates=make_templates(),
    )
    app.add_routes(auth.routes)
    app.add_routes(rooms.routes)
    app.add_routes(booking.routes)
    if test_api:
        app.add_routes(testapi.routes)
        app.add_routes(hostile.routes)
    app.router.add_static("/static/", _STATIC)

    async def close_store(_: web.Application) -> None:
        store.close()

    app.on_cleanup.append(close_store)
    return app
