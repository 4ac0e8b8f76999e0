"""The check after booking on Indico's pages (``adapters.profile.confirm``): Indico asks
for «my bookings» in parts, the next part once it drew the first. Right after booking,
the list is taken as soon as it draws the booking just made; every other read waits for
the rest of the list."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import time, timedelta

import pytest
from playwright.async_api import BrowserContext, Route

from tests.adapters.indico.profile_harness import profile_session
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_LATER_PART = "last_reservation_id="  # Indico's ask for the part after the last card drawn
_HOLD_SECONDS = 10.0  # shorter than the adapter's wait for a page to settle


async def test_a_booking_just_made_is_confirmed_before_the_rest_of_the_list_comes(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    session = profile_session(indico_server, context)
    session.fast_path = False  # the page path: «my bookings» as the page draws it
    # Soon, on a list of the seeded bookings alone: in its first part (Indico sends the
    # list by date, a part at a time; what earlier tests booked would come first).
    day = indico_server.today() + timedelta(days=2)
    release = asyncio.Event()
    held: list[str] = []
    answered: list[str] = []

    async def hold_later_parts(route: Route) -> None:
        if _LATER_PART in route.request.url:
            held.append(route.request.url)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(release.wait(), _HOLD_SECONDS)
            answered.append(route.request.url)
        await route.continue_()

    with indico_server.seeded_only():
        try:
            room = (await session.availability("7", day)).free_rooms(time(15), time(16))[0]
            made = await session.book(
                room=room, day=day, start=time(15), end=time(16), purpose="c #c1"
            )
            await context.route("**/rooms/api/bookings/active*", hold_later_parts)
            confirmed = await session.my_bookings()
            still_held = len(held) - len(answered)
            release.set()
            whole = await session.my_bookings()  # not right after booking: all of it
            await session.cancel(made.number)
        finally:
            release.set()
            await context.unroute("**/rooms/api/bookings/active*", hold_later_parts)
            await session.close()
    ours = [b for b in confirmed if b.number == made.number]
    assert [(b.building, b.room, b.day, b.is_live) for b in ours] == [
        (room.building, room.number, day, True)
    ]
    assert held and still_held, held  # taken while the list's next part was still asked for
    assert made.number in {b.number for b in whole}
    assert {b.number for b in confirmed} <= {b.number for b in whole}
