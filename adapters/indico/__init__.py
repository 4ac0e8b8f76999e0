"""Indico (CERN's room booking) through a real browser: the ``IndicoSystem`` adapter behind
the booking port, and the low-level client and types it is built on."""

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
from adapters.indico.retry import RetryPolicy
from adapters.indico.session import IndicoSession
from adapters.indico.system import IndicoSystem

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
    "IndicoSession",
    "IndicoSystem",
    "IndicoUser",
    "Location",
    "LoginFailed",
    "NotAllowed",
    "NotFound",
    "OutsideBookableHours",
    "PasswordChangeRequired",
    "RetryPolicy",
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
