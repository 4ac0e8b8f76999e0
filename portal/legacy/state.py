"""Everything a request handler needs, held in one object on the application."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import jinja2
from aiohttp import web

from portal.clock import Clock, now_msk
from portal.legacy.data import seed_bookings
from portal.legacy.quirks import Quirks, QuirkState
from portal.legacy.sessions import Session, Sessions
from portal.legacy.store import BookingBook

__all__ = ["SESSION", "STATE", "LegacyState"]


@dataclass
class LegacyState:
    book: BookingBook
    sessions: Sessions
    quirks: QuirkState
    clock: Clock
    seed: int | None
    templates: jinja2.Environment

    def now(self) -> datetime:
        """Site time in Moscow."""
        return now_msk(self.clock)

    def reset(self, seed: int | None) -> None:
        """Reseed the bookings, end every session, clear the quirks."""
        self.book.reset(seed_bookings(seed, self.now().date()))
        self.sessions.clear()
        self.quirks.apply(Quirks())


STATE = web.AppKey("legacy_state", LegacyState)
SESSION = web.RequestKey("legacy_session", Session)
