"""Booking systems behind one port.

    port.py       BookingSystem, BookingSession: what scenarios call
    models.py     Catalogue (Building, Room, Rules), Availability, Booking, PageSummary
    errors.py     what adapters raise (all ``core.errors.PortalError``)
    profile.py    local words for a site's buildings («чайка», «гк»), from a TOML file
    catalogue.py  the current catalogue: read from the site, cached, refreshed daily

Adapters live in ``adapters/<kind>/``; ``tests/adapters/contract.py`` is the suite
every adapter passes unchanged.
"""

from __future__ import annotations

from core.booking.errors import (
    BookingRejected,
    LockedOut,
    LoginFailed,
    OutcomeUnknown,
    PortalUnavailable,
    SessionExpired,
    SlotTaken,
    UnexpectedPage,
)
from core.booking.models import (
    Availability,
    Booking,
    Building,
    Catalogue,
    PageSummary,
    Room,
    RoomAvailability,
    Rules,
)
from core.booking.port import BookingSession, BookingSystem, OnRetry, PortalRetry

__all__ = [
    "Availability",
    "Booking",
    "BookingRejected",
    "BookingSession",
    "BookingSystem",
    "Building",
    "Catalogue",
    "LockedOut",
    "LoginFailed",
    "OnRetry",
    "OutcomeUnknown",
    "PageSummary",
    "PortalRetry",
    "PortalUnavailable",
    "Room",
    "RoomAvailability",
    "Rules",
    "SessionExpired",
    "SlotTaken",
    "UnexpectedPage",
]
