"""Indico (CERN's room booking) through a real browser: the ``IndicoSystem`` adapter behind
the booking port, and the low-level client and types it is built on."""

from __future__ import annotations

from adapters.indico.api import IndicoClient, login, resume
from adapters.indico.errors import (
    BeyondHorizon,
    BookingRefused,
    EventLeft,
    EventUndone,
    FormRefused,
    IndicoError,
    LoginRefused,
    Missing,
    NotAllowed,
    OutsideBookableHours,
    PasswordChangeRequired,
    SessionLost,
    SlotOccupied,
    SpansMidnight,
    StartsInPast,
    SystemUnavailable,
    UnexpectedAnswer,
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
    "EventLeft",
    "EventUndone",
    "FormRefused",
    "HoursRange",
    "IndicoClient",
    "IndicoError",
    "IndicoSession",
    "IndicoSystem",
    "IndicoUser",
    "Location",
    "LoginRefused",
    "Missing",
    "NotAllowed",
    "OutsideBookableHours",
    "PasswordChangeRequired",
    "Room",
    "RoomAvailability",
    "SessionLost",
    "SlotOccupied",
    "SpansMidnight",
    "StartsInPast",
    "SystemUnavailable",
    "UnexpectedAnswer",
    "login",
    "resume",
]
