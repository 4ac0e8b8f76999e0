"""«My bookings» on a real Indico by ``profiles/indico.yaml``: Indico shows a booking's
number only in the address its card leads to, so the adapter clicks each card once and
knows it by what it shows afterwards, in later runs too; cards alike (a weekly booking:
the same card under two days' headings... and a card's own text alike) are told apart by
their day's heading, and each keeps its own number."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, time, timedelta

import pytest
from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSystem, load_site_profile
from core.browser.retry import RetryPolicy
from tests.adapters.indico.profile_harness import PROFILE
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_card_is_clicked_once_and_cards_alike_keep_their_own_numbers(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    rooms = await asyncio.to_thread(indico_server.rooms)
    room = min((r for r in rooms if r.building == "7"), key=lambda r: r.name)
    first = indico_server.today() + timedelta(days=15)

    def book(day: int, reason: str) -> int:
        at = first + timedelta(days=day)
        start, end = datetime.combine(at, time(20)), datetime.combine(at, time(21))
        return indico_server.add_booking(room.id, start, end, reason, user="club")

    weekly = [await asyncio.to_thread(book, day, "weekly #w1") for day in (0, 7)]
    once = await asyncio.to_thread(book, 1, "once #w2")
    system = ProfileSystem(
        indico_server.base_url, load_site_profile(PROFILE), retry=RetryPolicy(attempts=2)
    )
    clicked: list[str] = []

    def note(request: Request) -> None:  # a card clicked: its modal fetches the booking
        if found := re.search(r"/rooms/api/bookings/(\d+)$", request.url.split("?")[0]):
            clicked.append(found[1])

    context.on("request", note)
    reads = []
    for _ in range(2):  # a session each (a run each): the system keeps what was read
        session = system.open_session(
            context, username=indico_server.club.username, password=indico_server.club.password
        )
        try:
            clicked.clear()
            mine = await session.my_bookings()
            reads.append(list(clicked))
        finally:
            await session.close()
        days = {b.number: b.day for b in mine if b.purpose.startswith(("weekly", "once"))}
        assert days == {
            str(weekly[0]): first,
            str(weekly[1]): first + timedelta(days=7),
            str(once): first + timedelta(days=1),
        }
    assert str(once) in reads[0] and str(once) not in reads[1]
    assert {str(n) for n in weekly} <= set(reads[0])
    assert not {str(n) for n in weekly} & set(reads[1])  # told apart by their day's heading
    assert len(reads[1]) < len(reads[0])


async def test_a_card_cancelled_by_hand_and_booked_again_alike_is_not_named_by_memory(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    """The account's memory pairs a card with its number; once the list no longer shows
    the card (cancelled on the site, not through the bot), a card like it later is another
    booking, clicked for its own number — cancelling by the old number must not find it."""
    rooms = await asyncio.to_thread(indico_server.room, "7/7-703")
    at = indico_server.today() + timedelta(days=18)
    start, end = datetime.combine(at, time(19)), datetime.combine(at, time(20))

    def book() -> int:
        return indico_server.add_booking(rooms.id, start, end, "again #w3", user="club")

    system = ProfileSystem(
        indico_server.base_url, load_site_profile(PROFILE), retry=RetryPolicy(attempts=2)
    )

    async def listed() -> dict[str, str]:
        session = system.open_session(
            context, username=indico_server.club.username, password=indico_server.club.password
        )
        try:
            return {b.number: b.purpose for b in await session.my_bookings()}
        finally:
            await session.close()

    first = await asyncio.to_thread(book)
    assert (await listed()).get(str(first)) == "again #w3"  # the card's number is learnt
    others = [b.id for b in await asyncio.to_thread(indico_server.bookings) if b.id != first]
    await asyncio.to_thread(indico_server.cancel_all, "club", others)  # by hand, on the site
    assert str(first) not in await listed()
    second = await asyncio.to_thread(book)  # the same room, time and purpose
    shown = await listed()
    assert shown.get(str(second)) == "again #w3"
    assert str(first) not in shown


# The first click on a booking's card stops at the window, before the page's own listeners:
# as a busy page may take a click and do nothing with it.
_FIRST_CARD_CLICK_LOST = """
let lost = false;
window.addEventListener('click', (event) => {
  if (!lost && event.target.closest('[class*=__booking-card___]')) {
    lost = true;
    event.stopPropagation();
    window.clubmanClickLost();
  }
}, true);
"""


async def test_a_click_on_a_card_that_leads_nowhere_is_made_again(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    """Under load, Indico's list, drawn and still, has taken a click on its first card and
    done nothing with it, at each of a read's attempts. The card is clicked again and its
    number read. (Each page loaded loses its first click on a card: a read's second
    attempt, after a fetch the page itself aborted, meets the same.)"""
    room = await asyncio.to_thread(indico_server.room, "7/7-703")
    at = indico_server.today() + timedelta(days=20)
    start, end = datetime.combine(at, time(8)), datetime.combine(at, time(9))
    booked = await asyncio.to_thread(
        indico_server.add_booking, room.id, start, end, "lost click #w4", user="club"
    )
    lost: list[str] = []
    await context.expose_function("clubmanClickLost", lambda: lost.append("click"))
    await context.add_init_script(_FIRST_CARD_CLICK_LOST)
    system = ProfileSystem(
        indico_server.base_url, load_site_profile(PROFILE), retry=RetryPolicy(attempts=2)
    )
    session = system.open_session(
        context, username=indico_server.club.username, password=indico_server.club.password
    )
    try:
        listed = {b.number: b.purpose for b in await session.my_bookings()}
    finally:
        await session.close()
        others = [b.id for b in await asyncio.to_thread(indico_server.bookings) if b.id != booked]
        await asyncio.to_thread(indico_server.cancel_all, "club", others)
    assert lost  # a click was lost, and the card clicked again
    assert listed.get(str(booked)) == "lost click #w4"
