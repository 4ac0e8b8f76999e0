"""Indico (CERN's room booking) through a real browser: a low-level client and its types."""

from __future__ import annotations

from adapters.indico.api import IndicoClient, login, resume
from adapters.indico.errors import (
    BeyondHorizon,
    BookingRefused,
    IndicoError,
    LoginFailed,
    NotAllowed,
    NotFound,
    OutsideBookableHours,
    PasswordChangeRequired,
    SessionExpired,
    SlotTaken,
    SpansMidnight,
    StartsInPast,
    SystemUnavailable,
)
from adapters.indico.models import (
    Booking,
    BookingState,
    Busy,
    BusyKind,
    Catalogue,
    HoursRange,
    IndicoUser,
    Location,
    Room,
    RoomAvailability,
)

__all__ = [
    "BeyondHorizon",
    "Booking",
    "BookingRefused",
    "BookingState",
    "Busy",
    "BusyKind",
    "Catalogue",
    "HoursRange",
    "IndicoClient",
    "IndicoError",
    "IndicoUser",
    "Location",
    "LoginFailed",
    "NotAllowed",
    "NotFound",
    "OutsideBookableHours",
    "PasswordChangeRequired",
    "Room",
    "RoomAvailability",
    "SessionExpired",
    "SlotTaken",
    "SpansMidnight",
    "StartsInPast",
    "SystemUnavailable",
    "login",
    "resume",
]
