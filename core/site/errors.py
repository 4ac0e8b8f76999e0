"""What an adapter of any site raises; every class is a ``core.errors.PortalError``
(a job's own refusals are its own: the booking job's ``SlotTaken`` and ``BookingRejected``
are ``scenarios.booking.errors``).

    PortalError (core.errors)
    ├── PortalUnavailable   HTTP 5xx, timeouts, connection errors (after retries)
    │   └── OutcomeUnknown  a booking POST without a readable answer (it may be made)
    ├── OutcomeUnconfirmed  a booking sent whose outcome is unknown and that the site shows
    │                       nowhere (not listed, not free): it may be made, never resent
    ├── LoginFailed         the portal refused the username or password
    ├── LockedOut           too many failed logins: the account is locked for a while
    ├── SessionExpired      the portal sent us to the login page again right after a re-login
    └── UnexpectedPage      a page the page objects do not know (e.g. the rules notice);
                            carries a ``PageSummary`` for the scenario or its LLM brain

Adapters translate their site's and Playwright's errors into these at their boundary:
timeouts, 5xx and network errors become ``PortalUnavailable``; a dead browser or page
becomes ``core.errors.BrowserError``. Messages never contain passwords.
"""

from __future__ import annotations

from core.errors import PortalError
from core.site.models import PageSummary

__all__ = [
    "LockedOut",
    "LoginFailed",
    "OutcomeUnconfirmed",
    "OutcomeUnknown",
    "PortalUnavailable",
    "SessionExpired",
    "UnexpectedPage",
]


class PortalUnavailable(PortalError):
    """The portal did not answer properly (5xx, timeout, network); worth trying again later."""


class OutcomeUnknown(PortalUnavailable):
    """A booking was sent but its answer was lost (5xx, timeout, network): it may be made.
    An adapter's ``book`` resolves it by looking in its «my bookings» before sending again."""


class OutcomeUnconfirmed(PortalError):
    """A booking was sent, its answer was lost, and the site shows it nowhere: not in «my
    bookings», and its room not free at that time on the day's grid (or the grid could not
    be read). It may be made, so it is never sent again; the user is told what to check.
    Not a ``PortalUnavailable``: nothing may retry it."""

    def __init__(self, message: str, *, room: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.room = room


class LoginFailed(PortalError):
    """Wrong username or password (the portal's message is in ``message``)."""


class LockedOut(PortalError):
    """Login is temporarily blocked after too many failures."""


class SessionExpired(PortalError):
    """Landed on the login page again although we had just logged in."""


class UnexpectedPage(PortalError):
    """A page we have no page object for; ``summary`` says what is on it."""

    def __init__(self, message: str, summary: PageSummary, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.summary = summary
