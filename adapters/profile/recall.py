"""What one account's sessions learnt of a site and later sessions may trust: the
site's buildings, the numbers of «my bookings» items, the bookings read from their pages,
where the «my bookings» search form leads, the booking form's token.

A «my bookings» list with no room or building column sends the reader to each booking's
own page, and a list that shows a booking's number only in its address sends it there by
a click. A booking's place does not change, so a page read once (after booking it, or at
an earlier list) stands for the list's row later while the row still says what the page
said: another booking under a reused number shows another day, time or purpose.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import date
from typing import NamedTuple

from scenarios.booking.models import Booking

__all__ = ["BookingPages", "KeptToken", "Recall"]

_AT_MOST = 5000  # bookings (and numbers) kept; then the oldest are read anew


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

    def from_day(self, first: date) -> list[Booking]:
        """The live bookings read on their pages that are on ``first`` or later."""
        return [b for b in self._read.values() if b.status == "active" and b.day >= first]

    def complete(self, listed: Booking, *, unshown: Collection[str] = ()) -> Booking | None:
        """``listed`` (a row lacking its room, building or end: ``unshown``) as its page
        showed it, when that page was read and the row agrees with it in everything the
        row shows."""
        read = self._read.get(listed.number)
        if read is None or read.status != "active":
            return None
        agrees = (listed.day, listed.start) == (read.day, read.start)
        agrees = agrees and ("end" in unshown or listed.end == read.end)
        for shown, known in (
            (listed.purpose, read.purpose),
            (listed.room, read.room),
            (listed.building_name, read.building_name),
        ):
            agrees = agrees and (not shown or " ".join(shown.split()) == " ".join(known.split()))
        return read.model_copy(update={"room_id": listed.room_id}) if agrees else None

    def number_of(self, listed: Booking, *, unshown: Collection[str] = ()) -> str | None:
        """The number of ``listed`` (a row showing no number), when exactly one booking
        read from its page agrees with it in everything the row shows, its purpose too."""
        if not listed.purpose.strip():
            return None  # the run's mark is what tells our bookings apart
        found = [
            number
            for number in self._read
            if self.complete(listed.model_copy(update={"number": number}), unshown=unshown)
            is not None
        ]
        return found[0] if len(found) == 1 else None


class KeptToken(NamedTuple):
    """The booking form's CSRF token as its page gave it, and a digest of the cookies the
    context sent the site then: the site's session the token belongs to."""

    cookies: str
    value: str


class Recall:
    """One account's memory of the site, shared by its sessions; ``account``, the login
    they log in with (whose rows of «my bookings» are the account's: ``owner``)."""

    def __init__(self, *, account: str) -> None:
        self.account = account
        self.buildings: dict[str, str] = {}  # code → name, as the site lists them
        # A list item as read (its text and what was probed in it, its day's heading
        # too) → the number its address had.
        self.numbers: dict[str, str] = {}
        self.pages = BookingPages()
        # «My bookings» behind a search form: the page's address → the address the form
        # led to, kept while the list read there confirms what a session just booked.
        self.searched: dict[str, str] = {}
        self.token: KeptToken | None = None  # the fast path's, while the session is the same
        # Rows of «my bookings» the profile cannot read, as reported (once each).
        self.unread_rows: set[str] = set()

    def unread_first_seen(self, row: str) -> bool:
        """Whether ``row`` (a row of «my bookings» the profile cannot read) is new: it is
        reported once, not at every read."""
        if row in self.unread_rows:
            return False
        if len(self.unread_rows) >= _AT_MOST:
            self.unread_rows.clear()
        self.unread_rows.add(row)
        return True

    async def site_buildings(
        self, read: Callable[[], Awaitable[dict[str, str]]], again: bool = False
    ) -> dict[str, str]:
        """Building code → name as the site lists them: read once, or ``again`` (one asked
        for is not among them: the site may have added it since)."""
        if again or not self.buildings:
            self.buildings = dict(await read())
        return self.buildings

    def learn(self, item: str, number: str) -> None:
        if len(self.numbers) >= _AT_MOST:
            del self.numbers[next(iter(self.numbers))]
        self.numbers[item] = number

    def shown(self, items: Collection[str]) -> None:
        """The whole list shows ``items``: an item not among them is gone (cancelled,
        maybe by hand on the site), and an item like it later is another booking."""
        for item in [key for key in self.numbers if key not in items]:
            self.pages.forget(self.numbers.pop(item))

    def forget(self, number: str) -> None:
        """Booking ``number`` is cancelled: an item like it later is another booking."""
        self.pages.forget(number)
        for item in [key for key, known in self.numbers.items() if known == number]:
            del self.numbers[item]
