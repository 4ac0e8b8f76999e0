"""What goes wrong talking to Indico, typed; each error carries Indico's own words where
it gave any. Internal to the adapter: ``IndicoSession`` (``mapping.port_error``) and
``IndicoEventSystem`` (``event_system.translated``) translate them into their port's
errors at the boundary, so a scenario never sees one.

    IndicoError (a core.errors.PortalError)
    ├── LoginRefused            the login form refused the username or password
    ├── PasswordChangeRequired  logged in, but every page is the password change form
    ├── SessionLost             Indico no longer knows our session: log in again once
    ├── SystemUnavailable       no answer, a timeout or a 5xx: worth retrying
    ├── UnexpectedAnswer        an answer the adapter has no reading of (a stray redirect)
    ├── NotAllowed              HTTP 403 with a live session: not for this account
    ├── Missing                 HTTP 404: no such room, booking or event
    ├── FormRefused             a classic page sent its form back instead of acting on it
    ├── BookingRefused          a refusal Indico shows users (HTTP 418, 422)
    │   ├── BeyondHorizon           more days in advance than the room allows
    │   ├── OutsideBookableHours    outside the room's bookable hours
    │   ├── StartsInPast            it would start in the past
    │   ├── SlotOccupied            someone else holds (part of) the slot
    │   └── SpansMidnight           a one-off booking must end on the day it starts
    └── EventUndone             the new event's room was not booked: the event deleted again
        └── EventLeft               ... and its delete failed: the event stays, roomless

Named unlike the ports' errors (``core.site``'s ``LoginFailed``/``SessionExpired``, the
booking port's ``SlotTaken``, ``core.errors.NotFound``) so that a module handling both
never confuses the two. Messages never contain passwords or session cookies.
"""

from __future__ import annotations

from core.errors import PortalError
from scenarios.events.models import Event

__all__ = [
    "BeyondHorizon",
    "BookingRefused",
    "EventLeft",
    "EventUndone",
    "FormRefused",
    "IndicoError",
    "LoginRefused",
    "Missing",
    "NotAllowed",
    "OutsideBookableHours",
    "PasswordChangeRequired",
    "SessionLost",
    "SlotOccupied",
    "SpansMidnight",
    "StartsInPast",
    "SystemUnavailable",
    "UnexpectedAnswer",
]


class IndicoError(PortalError):
    """Anything that went wrong talking to Indico; ``message`` is Indico's text when it
    sent one, ``status`` its HTTP status when there was an answer."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LoginRefused(IndicoError):
    """The login form refused the username or password (Indico's flash text is the message)."""


class PasswordChangeRequired(IndicoError):
    """Logged in, but Indico sends every page to the password change form until it is changed."""


class SessionLost(IndicoError):
    """Indico no longer knows our session (logged out, expired, or the CSRF token went stale)."""


class SystemUnavailable(IndicoError):
    """Indico did not answer, timed out, or failed with a 5xx: worth retrying later."""


class UnexpectedAnswer(IndicoError):
    """An answer the adapter has no reading of (a redirect elsewhere, a status it does not
    know, a delete not confirmed)."""


class NotAllowed(IndicoError):
    """HTTP 403 with a live session: not for this user (e.g. booking a pre-booking-only room)."""


class Missing(IndicoError):
    """HTTP 404: no such room, booking or event (or it was deleted)."""


class FormRefused(IndicoError):
    """Indico sent a form back instead of acting on it; ``message`` holds its errors."""


class BookingRefused(IndicoError):
    """Indico refused the booking with a reason shown to users (HTTP 418 ``ExpectedError``)."""


class BeyondHorizon(BookingRefused):
    """The room may not be booked that many days in advance (the room's ``max_advance_days``)."""


class OutsideBookableHours(BookingRefused):
    """The time range is outside the room's bookable hours."""


class StartsInPast(BookingRefused):
    """The booking would start in the past."""


class SlotOccupied(BookingRefused):
    """Someone else holds (part of) the slot: Indico drops the clashing occurrence, none is left."""


class SpansMidnight(BookingRefused):
    """A one-off booking must start and end on one day; Indico fails such a request with a 500."""


class EventUndone(IndicoError):
    """The new event's room could not be booked and the event was deleted again.
    ``refusal``: Indico's words when it refused the booking; ``None`` when it failed."""

    def __init__(self, message: str, *, refusal: str | None, status: int | None = None) -> None:
        super().__init__(message, status=status)
        self.refusal = refusal


class EventLeft(EventUndone):
    """... and deleting the event failed too: ``event`` is on the site without its room."""

    def __init__(self, message: str, *, event: Event, refusal: str | None) -> None:
        super().__init__(message, refusal=refusal)
        self.event = event
