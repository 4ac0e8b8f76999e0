"""Bookings read from their own pages, remembered by number per account.

A «my bookings» list with no room or building column sends the reader to each booking's
own page. A booking's place does not change, so a page read once (after booking it, or at
an earlier list) completes the list's row later, while the row still says what the page
said: another booking under a reused number shows another day, time or purpose.
"""

from __future__ import annotations

from scenarios.booking.models import Booking

__all__ = ["BookingPages"]

_AT_MOST = 5000  # bookings kept (then the oldest are read from their pages again)


class BookingPages:
    """Booking number → the booking as its own page showed it."""

    def __init__(self) -> None:
        self._read: dict[str, Booking] = {}

    def remember(self, booking: Booking) -> None:
        self._read.pop(booking.number, None)
        if len(self._read) >= _AT_MOST:
            del self._read[next(iter(self._read))]
        self._read[booking.number] = booking

    def forget(self, number: str) -> None:
        self._read.pop(number, None)

    def complete(self, listed: Booking) -> Booking | None:
        """``listed`` (a row lacking its room or building) as its page showed it, when
        that page was read and the row agrees with it in everything the row shows."""
        read = self._read.get(listed.number)
        if read is None or read.status != "active":
            return None
        agrees = (listed.day, listed.start, listed.end) == (read.day, read.start, read.end)
        for shown, known in (
            (listed.purpose, read.purpose),
            (listed.room, read.room),
            (listed.building_name, read.building_name),
        ):
            agrees = agrees and (not shown or " ".join(shown.split()) == " ".join(known.split()))
        return read.model_copy(update={"room_id": listed.room_id}) if agrees else None
