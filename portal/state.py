"""Everything a request handler needs, held in one object on the application."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import jinja2
from aiohttp import web

from portal.auth import Session, SessionStore
from portal.clock import Clock, now_msk
from portal.db import BookingStore
from portal.quirks import QuirkState

__all__ = ["SESSION", "SESSION_EXPIRED", "STATE", "PortalState"]


@dataclass
class PortalState:
    store: BookingStore
    sessions: SessionStore
    quirks: QuirkState
    clock: Clock
    seed: int | None
    test_api: bool
    templates: jinja2.Environment

    def now(self) -> datetime:
        """Portal time in Moscow."""
        return now_msk(self.clock)


STATE = web.AppKey("portal_state", PortalState)
SESSION = web.RequestKey("portal_session", Session)
SESSION_EXPIRED = web.RequestKey("portal_session_expired", bool)
