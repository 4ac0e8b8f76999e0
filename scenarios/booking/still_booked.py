"""Which bookings are still on the site, for the reminders (``reminders.LiveBookings``).

A booking was made with the user's own account (/login) or, before they had one or
after /logout, with the club's. Booking numbers are the site's own, so a user's live
bookings are those on their own account and those on the club's: one session reads the
club's account for every user of a pass, one more each own account. An account that
cannot be read (the site down, the login refused, a page the adapter does not know)
leaves its users' reminders unchecked rather than wrongly cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from core.errors import BrowserError, PortalError
from scenarios.booking.work import PortalWork, SessionVault

__all__ = ["StillBooked"]

log = structlog.get_logger("clubman.reminders")


class StillBooked:
    """``reminders.LiveBookings`` on the booking site, through ``PortalWork``."""

    def __init__(self, *, work: PortalWork, vault: SessionVault) -> None:
        self._work = work
        self._vault = vault

    async def live_numbers(self, user_ids: Sequence[int]) -> dict[int, frozenset[str]]:
        own: dict[str, list[int]] = {}  # an own account's username: its users
        club_users: list[int] = []
        for user_id in user_ids:
            personal = await self._vault.credentials(user_id)
            if personal is None:
                club_users.append(user_id)
            else:
                own.setdefault(personal.username, []).append(user_id)
        club: frozenset[str] | None = frozenset()  # no club account: nothing booked on it
        if self._work.club_account:
            # A club user's saved cookies are the club's session: no extra login.
            club = await self._read(club_users[0] if club_users else None)
        if club is None:
            return {}
        live = dict.fromkeys(club_users, club)
        for users in own.values():
            numbers = await self._read(users[0])
            if numbers is not None:
                live.update(dict.fromkeys(users, numbers | club))
        return live

    async def _read(self, user_id: int | None) -> frozenset[str] | None:
        """The live bookings of ``user_id``'s account; None when the site cannot say."""
        try:
            # The language only words a missing club account, which is logged, not shown.
            async with self._work.reader(user_id, "en") as session:
                bookings = await session.my_bookings()
        except (PortalError, BrowserError) as exc:
            log.warning("reminder.site_unread", user_id=user_id, error=str(exc))
            return None
        return frozenset(booking.number for booking in bookings if booking.is_live)
