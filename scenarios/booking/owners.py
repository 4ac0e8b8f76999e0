"""Whose a booking on the site is, for ``core.authz``: the member whose request made it
(the run mark in its purpose names the run, the run its asker); every booking on a
member's own account (``/login``) is theirs; any other (made outside the bot, or by a
run no longer stored) is the administrators'."""

from __future__ import annotations

from collections.abc import Sequence

from core.authz import Actor, may_act
from core.store import RunStore
from scenarios.booking.marks import run_of
from scenarios.booking.models import Booking
from scenarios.booking.work import PortalWork

__all__ = ["BookingOwners"]


class BookingOwners:
    def __init__(self, *, runs: RunStore, work: PortalWork) -> None:
        self._runs = runs
        self._work = work

    async def owner(self, booking: Booking) -> int | None:
        run_id = run_of(booking.purpose)
        run = await self._runs.get(run_id) if run_id else None
        return run.user_id if run is not None else None

    async def theirs(self, actor: Actor, bookings: Sequence[Booking]) -> list[Booking]:
        """Those of ``bookings`` (read with ``actor``'s account) that ``actor`` may act on."""
        if actor.admin or await self._work.personal(actor.user_id):
            return list(bookings)
        owners: dict[str, int | None] = {}  # a request's rooms share one run
        allowed = []
        for booking in bookings:
            mark = run_of(booking.purpose)
            if mark not in owners:
                owners[mark] = await self.owner(booking)
            if may_act(actor, owners[mark]):
                allowed.append(booking)
        return allowed
