"""«My bookings» on a real Indico by ``profiles/indico.yaml``: Indico shows a booking's
number only in the address its card leads to, so the adapter clicks each card once and
knows it by what it shows afterwards, in later runs too; cards alike (a weekly booking:
the same card under two days' headings... and a card's own text alike) are told apart by
their day's heading, and each keeps its own number."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import datetime, time, timedelta

import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSystem, load_site_profile
from core.browser import BrowserPool
from core.browser.retry import RetryPolicy
from tests.adapters.indico.profile_harness import PROFILE
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool) -> AsyncIterator[BrowserContext]:
    async with pool.context() as ctx:
        yield ctx


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
