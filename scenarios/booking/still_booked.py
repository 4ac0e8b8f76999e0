"""Which bookings are still on the site, for the reminders (``core.reminders.LiveBookings``).

A booking is read back with the account that made it, as a run would log in: the user's
own (/login), else the club's. Users without an account of their own all book with the
club's, so one session reads every booking of theirs: a pass opens one session per
account, not per reminder. An account that cannot be read (the site down, the login
refused, a page the adapter does not know) is left out, and its users' reminders go
unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from core.errors import BrowserError, PortalError
from scenarios.booking.work import PortalWork, SessionVault

__all__ = ["StillBooked"]

log = structlog.get_logger("clubman.reminders")


class StillBooked:
    """``core.reminders.LiveBookings`` on the booking site, through ``PortalWork``."""

    def __init__(self, *, work: PortalWork, vault: SessionVault) -> None:
        self._work = work
        self._vault = vault

    async def live_numbers(self, user_ids: Sequence[int]) -> dict[int, frozenset[str]]:
        accounts: dict[str | None, list[int]] = {}  # None: the club's account
        for user_id in user_ids:
            personal = await self._vault.credentials(user_id)
            accounts.setdefault(personal.username if personal else None, []).append(user_id)
        live: dict[int, frozenset[str]] = {}
        for users in accounts.values():
            numbers = await self._read(users[0])
            if numbers is not None:
                live.update(dict.fromkeys(users, numbers))
        return live

    async def _read(self, user_id: int) -> frozenset[str] | None:
        """The live bookings of ``user_id``'s account; None when the site cannot say."""
        try:
            # The language only words a missing club account, which is logged, not shown.
            async with self._work.reader(user_id, "en") as session:
                bookings = await session.my_bookings()
        except (PortalError, BrowserError) as exc:
            log.warning("reminder.site_unread", user_id=user_id, error=str(exc))
            return None
        return frozenset(booking.number for booking in bookings if booking.is_live)
