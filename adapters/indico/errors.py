"""Typed failures of Indico's room booking, each carrying Indico's own words where it gave any.

One base class, :class:`IndicoError`, so the adapter can map them to the port's errors in
one place. Messages never contain passwords or session cookies.
"""

from __future__ import annotations

__all__ = [
    "BeyondHorizon",
    "BookingRefused",
    "IndicoError",
    "LoginFailed",
    "NotAllowed",
    "NotFound",
    "OutsideBookableHours",
    "PasswordChangeRequired",
    "SessionExpired",
    "SlotTaken",
    "SpansMidnight",
    "StartsInPast",
    "SystemUnavailable",
]


class IndicoError(Exception):
    """Anything that went wrong talking to Indico; ``message`` is Indico's text when it sent one."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class LoginFailed(IndicoError):
    """The login form refused the username or password (Indico's flash text is the message)."""


class PasswordChangeRequired(IndicoError):
    """Logged in, but Indico sends every page to the password change form until it is changed."""


class SessionExpired(IndicoError):
    """Indico no longer knows our session (logged out, expired, or the CSRF token went stale)."""


class SystemUnavailable(IndicoError):
    """Indico did not answer, timed out, or failed with a 5xx: worth retrying later."""


class NotAllowed(IndicoError):
    """HTTP 403 with a live session: not for this user (e.g. booking a pre-booking-only room)."""


class NotFound(IndicoError):
    """HTTP 404: no such room or booking (or it was deleted)."""


class BookingRefused(IndicoError):
    """Indico refused the booking with a reason shown to users (HTTP 418 ``ExpectedError``)."""


class BeyondHorizon(BookingRefused):
    """The room may not be booked that many days in advance (the room's ``max_advance_days``)."""


class OutsideBookableHours(BookingRefused):
    """The time range is outside the room's bookable hours."""


class StartsInPast(BookingRefused):
    """The booking would start in the past."""


class SlotTaken(BookingRefused):
    """Someone else holds (part of) the slot: Indico drops the clashing occurrence, none is left."""


class SpansMidnight(BookingRefused):
    """A one-off booking must start and end on one day; Indico fails such a request with a 500."""
