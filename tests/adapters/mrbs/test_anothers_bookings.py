"""Another person's bookings that MRBS's «my bookings» finds for the club (a text search
for the login: a booking named «club meeting» is listed too) are not the club's:
``my_bookings.owner`` in profiles/mrbs.yaml reads «Создано» (the login, then the display
name). Without it the bot listed them as the club's, let the user cancel them (MRBS
refuses: the button is not there, and the bot said «the site changed»), and took one
holding the slot under the purpose it sent for the club's own booking made."""

from __future__ import annotations

from datetime import time

import pytest

from core.browser import BrowserPool
from core.site.models import Room
from scenarios.booking.errors import BookingRejected, SlotTaken
from tests.adapters.mrbs.harness import MrbsHarness
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _room(free: list[Room], number: str) -> Room:
    return next(room for room in free if room.number == number)


async def test_anothers_club_meeting_is_not_listed_nor_cancelled_and_the_clubs_own_is_found(
    mrbs: MrbsServer, pool: BrowserPool
) -> None:
    site = MrbsHarness(mrbs)
    day, at = site.day, mrbs.at
    # ivanov's, found by MRBS's search for «club» in the name and in the description
    meeting = mrbs.add_booking("101", at(day, "16:00"), at(day, "17:00"), name="club meeting")
    described = mrbs.add_booking(
        "102", at(day, "16:00"), at(day, "17:00"), name="Семинар", description="для club"
    )
    async with pool.context() as context:
        session = site.system.open_session(context, username=site.username, password=site.password)
        try:
            free = (await session.availability(site.building, day)).free_rooms(time(16), time(17))
            made = await session.book(
                room=_room(free, "103"), day=day, start=time(16), end=time(17),
                purpose="club meeting",  # as ivanov's: the room and the number tell them apart
            )  # fmt: skip
            listed = await session.my_bookings()
            with pytest.raises(BookingRejected) as refused:
                await session.cancel(str(meeting))
        finally:
            await session.close()
    assert [b.number for b in listed] == [made.number]
    assert (made.room, made.purpose) == ("103", "club meeting")
    assert refused.value.code == "not_found"
    left = {entry.id: entry.create_by for entry in mrbs.bookings()}
    assert left[meeting] == left[described] == mrbs.other.username  # nothing pressed on them
    assert [(b.room, b.name) for b in mrbs.bookings("club")] == [("103", "club meeting")]


async def test_a_slot_another_holds_under_the_purpose_sent_is_taken_not_the_clubs_booking(
    mrbs: MrbsServer, pool: BrowserPool
) -> None:
    """MRBS refuses the save (a conflict), and the bot looks in «my bookings» for its own
    booking made by an earlier answer lost: ivanov's entry there, in the same room, at the
    same hours, under the same purpose, was that booking until the owner told it apart."""
    site = MrbsHarness(mrbs)
    day, at = site.day, mrbs.at
    async with pool.context() as context:
        session = site.system.open_session(context, username=site.username, password=site.password)
        try:
            free = (await session.availability(site.building, day)).free_rooms(time(16), time(17))
            room = _room(free, "104")
            mrbs.add_booking("104", at(day, "16:00"), at(day, "17:00"), name="club #o1")
            with pytest.raises(SlotTaken):
                await session.book(
                    room=room, day=day, start=time(16), end=time(17), purpose="club #o1"
                )
        finally:
            await session.close()
    assert mrbs.bookings("club") == []
