"""The ``BookingSystem`` port: the one seam between the scenarios and a booking site.

Scenarios, schedules, alternatives and the brain speak only to these Protocols; each
site is one package under ``adapters/`` that implements them (``adapters/profile`` for
any site a profile describes, our reference portal among them). Logging in, re-logging
after an expired session and retrying transient failures happen inside the adapter's
session; what reaches the caller is a model (``scenarios.booking.models``, the site's
catalogue ``core.site``) or an error (``scenarios.booking.errors``, a site's failures
``core.site.errors``).
"""

from __future__ import annotations

from datetime import date, time
from typing import Any, Protocol

from core.browser import BrowserContext
from core.site import Catalogue, OnRetry, PageSummary, Room
from scenarios.booking.models import Availability, Booking

__all__ = ["BookingSession", "BookingSystem"]


class BookingSession(Protocol):
    """One user's logged-in conversation with the site, on one browser context.

    Not safe for concurrent use. ``book`` writes the run's mark (``purpose``) where the
    site keeps a booking's reason, and never sends a create whose outcome is unknown
    again without first finding it (or not) in ``my_bookings``.
    """

    @property
    def logins(self) -> int:
        """How many times the login form was sent (0: saved cookies were enough)."""
        ...

    async def ensure_logged_in(self) -> None: ...

    async def catalogue(self) -> Catalogue:
        """The site's buildings, rooms and rules, as the site lists them."""
        ...

    async def availability(self, building: str, day: date) -> Availability: ...

    async def book(
        self,
        *,
        room: Room,
        day: date,
        start: time,
        end: time,
        purpose: str,
        attendees: int | None = None,
    ) -> Booking: ...

    async def my_bookings(self) -> list[Booking]:
        """The user's current and future bookings (cancelled ones may be listed too).

        Once right after ``book`` (the run's check), an adapter may answer with the part
        of the list that shows live every booking the session made, without waiting for
        the rest of a list the site sends in parts."""
        ...

    async def cancel(self, number: str) -> None:
        """Cancel booking ``number``; one that is not among the user's live bookings is
        ``BookingRejected`` (scenarios look before they cancel)."""
        ...

    # The page driver the brain uses when a page surprises a step.
    async def page_summary(self) -> PageSummary: ...

    def may_change(self, step: str) -> tuple[str, ...]:
        """The endpoints (absolute URLs) a brain-chosen action in ``step`` may send a
        change to; every other request but a read is blocked. None by default."""
        ...

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        """Press the control the summary names exactly so, under the network guard;
        ``HarmPrevented`` when it was refused or a request blocked."""
        ...

    async def check(self, label: str, *, step: str = "") -> None: ...

    async def release(self) -> tuple[str, ...]:
        """The brain is done with the page: the guard comes off its actions, windows they
        opened are closed; ``HarmPrevented`` for anything blocked since. Returns the reads
        the site answered as changes («GET url»: a link it redirected)."""
        ...

    async def storage_state(self) -> dict[str, Any]:
        """Cookies and local storage, saved (encrypted) so the next run skips the login."""
        ...

    async def close(self) -> None:
        """Close the session's pages (the context belongs to the caller)."""
        ...


class BookingSystem(Protocol):
    """A booking site: how to open a session on it."""

    kind: str  # the ``PORTAL__KIND`` that selects it, e.g. "refportal"
    url: str

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> BookingSession: ...
