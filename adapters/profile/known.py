"""«My bookings» as a session last read them in full, answered again while the site is
unchanged.

A booking run asks for the list three times: as it looks for free rooms (are any ours
already?), before it books (booked before a restart?) and after (is it there?). The
first two are a few seconds apart with nothing but reads between them, so the second
needs no page of its own. Whatever the session does that may change the site (a booking,
a cancel, a click) forgets the list, so the check after booking always asks the site.
Others may change the list too (a member on the site, an administrator), so it is kept
only ``KEPT_SECONDS``: only this run's own bookings carry its mark, and those only it
can add.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic

from scenarios.booking.models import Booking

__all__ = ["KEPT_SECONDS", "KnownList"]

KEPT_SECONDS = 30.0


class KnownList:
    """The last full read of «my bookings», while it may stand for the site's."""

    def __init__(self, *, clock: Callable[[], float] = monotonic) -> None:
        self._clock = clock
        self._read: tuple[float, list[Booking]] | None = None

    def bookings(self) -> list[Booking] | None:
        """The list as read, if read less than ``KEPT_SECONDS`` ago with nothing changed."""
        if self._read is None:
            return None
        read_at, bookings = self._read
        if self._clock() - read_at >= KEPT_SECONDS:
            self._read = None
            return None
        return list(bookings)

    def keep(self, bookings: list[Booking]) -> None:
        self._read = (self._clock(), list(bookings))

    def forget(self) -> None:
        """The site may have changed: the next read asks it."""
        self._read = None
