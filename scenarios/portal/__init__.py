"""Page objects for the university booking portal.

Scenarios call ``PortalSession``; only ``pages/`` knows the portal's labels and roles
(no CSS classes or ids, so the portal's layout variants keep working).
"""

from __future__ import annotations

from scenarios.portal.errors import (
    BookingRejected,
    LockedOut,
    LoginFailed,
    OutcomeUnknown,
    PortalUnavailable,
    SessionExpired,
    SlotTaken,
    UnexpectedPage,
)
from scenarios.portal.models import Grid, PageSummary, PortalBooking, Room, RoomAvailability
from scenarios.portal.retry import RetryPolicy
from scenarios.portal.session import PortalSession

__all__ = [
    "BookingRejected",
    "Grid",
    "LockedOut",
    "LoginFailed",
    "OutcomeUnknown",
    "PageSummary",
    "PortalBooking",
    "PortalSession",
    "PortalUnavailable",
    "RetryPolicy",
    "Room",
    "RoomAvailability",
    "SessionExpired",
    "SlotTaken",
    "UnexpectedPage",
]
