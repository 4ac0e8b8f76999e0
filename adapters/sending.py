"""Sending a booking so that it is never made twice: the promise every adapter keeps.

A create whose answer was lost (``OutcomeUnknown``) may have been made, and a
``SlotTaken`` may be our own booking (a lost answer, or the same request again): either
way «my bookings» is read first (``find``), and a booking found there is the answer.

A create the site answered as made but numbered nowhere (``send`` returns None: a site
whose save leads back to the day) is looked for there too, and never sent again.

A lost answer not found there is not yet a reason to send again: a site may list only
the next days, or show a new booking only after approval. It is sent again only when the
site shows, after a wait, that it was not made — the room free at that time on the day's
grid (``read_day``). When the grid shows the room held, or cannot be read, the booking
may be made: it is never sent again (``OutcomeUnconfirmed``, which the job tells the user
plainly). A ``SlotTaken`` that is not ours is raised at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import time

import structlog

from core.errors import PortalError
from core.site.errors import OutcomeUnconfirmed, OutcomeUnknown, PortalUnavailable
from core.site.models import Room
from scenarios.booking.errors import SlotTaken
from scenarios.booking.models import Availability, Booking

__all__ = ["send_once"]

log = structlog.get_logger("clubman.portal")


async def send_once(
    send: Callable[[], Awaitable[str | None]],
    find: Callable[[], Awaitable[Booking | None]],
    read_day: Callable[[], Awaitable[Availability]],
    *,
    room: Room,
    start: time,
    end: time,
    attempts: int,
    delay: Callable[[int], float],
) -> str | Booking:
    """The new booking's number from ``send``, or the booking ``find`` found made (also
    when ``send`` says it made one without its number: None).

    ``read_day``: the site's day in the room's building (what shows whether a lost create
    was made). Raises ``OutcomeUnconfirmed`` when a lost create may
    be made, ``PortalUnavailable`` when the site shows it was not made after ``attempts``
    sends, and ``SlotTaken`` when the room is someone else's."""
    if attempts < 1:
        raise ValueError("send_once needs at least one attempt")
    for attempt in range(1, attempts + 1):
        try:
            number = await send()
        except SlotTaken:
            listed = await find()
            if listed is None:
                raise
            log.info("portal.booked", number=listed.number, room=room.id, seen_in="my")
            return listed
        except OutcomeUnknown as exc:
            listed = await _read_or_none(find)
            if listed is not None:
                log.info("portal.booked", number=listed.number, room=room.id, seen_in="my")
                return listed
            await asyncio.sleep(delay(attempt))  # a late create lands before the look
            if not await _shows_free(read_day, room, start, end):
                log.warning("portal.outcome_unconfirmed", room=room.id, reason=exc.message)
                raise OutcomeUnconfirmed(
                    f"Бронь {room.number} отправлена, но сайт не показал, сделана ли она: её нет в "
                    "«моих бронях», а время на сайте не свободно",
                    room=room.number,
                    hint="проверьте «мои брони» на сайте: я не отправляю её снова",
                ) from exc
            if attempt == attempts:
                raise PortalUnavailable(
                    f"Сайт не принял бронь {room.number} (попыток: {attempts}): {exc.message}"
                ) from exc
            log.warning("portal.resend", room=room.id, attempt=attempt, reason=exc.message)
        else:
            if number is not None:
                log.info("portal.booked", number=number, room=room.id)
                return number
            listed = await _read_or_none(find)
            if listed is None:
                log.warning("portal.made_unlisted", room=room.id)
                raise OutcomeUnconfirmed(
                    f"Сайт принял бронь {room.number}, но не показал её номер, и в «моих "
                    "бронях» её не видно",
                    room=room.number,
                    hint="проверьте «мои брони» на сайте: я не отправляю её снова",
                )
            log.info("portal.booked", number=listed.number, room=room.id, seen_in="my")
            return listed
    raise AssertionError("unreachable: every attempt returns or raises")


async def _read_or_none(find: Callable[[], Awaitable[Booking | None]]) -> Booking | None:
    """«My bookings»' answer, or None when they cannot be read (the grid decides then)."""
    try:
        return await find()
    except PortalError as exc:
        log.warning("portal.my_bookings_unread", reason=exc.message)
        return None


async def _shows_free(
    read_day: Callable[[], Awaitable[Availability]], room: Room, start: time, end: time
) -> bool:
    """Whether the site's day shows ``room`` free from ``start`` to ``end``; a day that
    cannot be read, or that does not show the room, is not free."""
    try:
        day = await read_day()
    except PortalError as exc:
        log.warning("portal.grid_unread", reason=exc.message)
        return False
    return day.is_free(room.number, start, end)
