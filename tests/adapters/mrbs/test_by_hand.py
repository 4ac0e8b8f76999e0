"""Bookings the club made by hand on a real MRBS (through MRBS itself, not the bot): the
bot still lists them with its own, and still books (issue 66: one booking made by hand
once made the whole list unreadable, and the bot could no longer book at all)."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from core.browser import BrowserPool
from tests.adapters.mrbs.harness import MrbsHarness
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_booking_made_by_hand_is_listed_and_the_bot_still_books(
    mrbs: MrbsServer, pool: BrowserPool
) -> None:
    site = MrbsHarness(mrbs)
    by_hand = mrbs.add_booking(
        "105", mrbs.at(site.day, "09:00"), mrbs.at(site.day, "10:00"),
        name="Ремонт проектора", user="club", description="записано вручную",
    )  # fmt: skip
    # and one over two days, which no booking of the bot's is: read or left out, never fatal
    mrbs.add_booking(
        "104", mrbs.at(site.day, "20:00"), mrbs.at(site.day + timedelta(days=1), "09:00"),
        name="Выставка", user="club",
    )  # fmt: skip
    async with pool.context() as context:
        session = site.system.open_session(context, username=site.username, password=site.password)
        try:
            free = await session.availability(site.building, site.day)
            room = free.free_rooms(time(16), time(17))[0]
            made = await session.book(
                room=room, day=site.day, start=time(16), end=time(17), purpose="Клуб #h1"
            )
            mine = {b.number: b for b in await session.my_bookings()}
        finally:
            await session.close()
    assert made.number in mine and str(by_hand) in mine
    assert mine[str(by_hand)].purpose == "Ремонт проектора"
    assert [(b.room, b.start.time(), b.end.time()) for b in mrbs.bookings("club")
            if b.name == "Клуб #h1"] == [(room.number, time(16), time(17))]  # fmt: skip
