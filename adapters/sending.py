"""Sending a booking so that it is never made twice: the promise every adapter keeps.

A create whose answer was lost (``OutcomeUnknown``) may have been made, and a
``SlotTaken`` may be our own booking (a lost answer, or the same request again): either
way «my bookings» is read first (``find``), and a booking found there is the answer.
Only when it is not there is the create sent again, with a wait between tries; a
``SlotTaken`` that is not ours is raised at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import structlog

from core.site.errors import OutcomeUnknown
from scenarios.booking.errors import SlotTaken
from scenarios.booking.models import Booking

__all__ = ["send_once"]

log = structlog.get_logger("clubman.portal")


async def send_once(
    send: Callable[[], Awaitable[str]],
    find: Callable[[], Awaitable[Booking | None]],
    *,
    attempts: int,
    delay: Callable[[int], float],
    room: str,
) -> str | Booking:
    """The new booking's number from ``send``, or the booking ``find`` found made."""
    for attempt in range(1, attempts + 1):
        try:
            number = await send()
        except (OutcomeUnknown, SlotTaken) as exc:
            listed = await find()
            if listed is not None:
                log.info("portal.booked", number=listed.number, room=room, seen_in="my")
                return listed
            if isinstance(exc, SlotTaken) or attempt == attempts:
                raise
            log.warning("portal.resend", room=room, attempt=attempt, reason=exc.message)
            await asyncio.sleep(delay(attempt))
        else:
            log.info("portal.booked", number=number, room=room)
            return number
    raise ValueError("send_once needs at least one attempt")
