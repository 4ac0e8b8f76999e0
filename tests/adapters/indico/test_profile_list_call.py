"""«My bookings» by the call Indico's own list page makes (issue 29): on the fast path,
``profiles/indico.yaml`` reads the list from ``/rooms/api/bookings/active`` without
drawing the page, and reads exactly what the page shows; an answer unlike the profile's
description is read from the page instead."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import time, timedelta

import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext

from scenarios.booking.models import Booking
from tests.adapters.indico.profile_harness import pages_asked, profile_session
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_LIST_PAGE = "GET rooms/calendar?view=list"  # the list page, not the day's timeline


def _shown(bookings: list[Booking]) -> list[tuple[str, str, str, str, str, str, str]]:
    return sorted(
        (b.number, b.building, b.room, b.day.isoformat(), f"{b.start}", f"{b.end}", b.purpose)
        for b in bookings
    )


@pytest_asyncio.fixture(loop_scope="session")
async def booked(indico_server: IndicoServer, context: BrowserContext) -> AsyncIterator[str]:
    """One booking of the club's made for these tests (beside the seeded ones), cancelled
    after them."""
    session = profile_session(indico_server, context)
    day = indico_server.today() + timedelta(days=9)
    try:
        free = (await session.availability("7", day)).free_rooms(time(15), time(16))[0]
        made = await session.book(room=free, day=day, start=time(15), end=time(16),
                                  purpose="list call #l1")  # fmt: skip
    finally:
        await session.close()
    yield made.number
    await asyncio.to_thread(indico_server.cancel_all, indico_server.club.username,
                            indico_server.seeded)  # fmt: skip


async def test_the_list_by_indicos_own_call_is_the_list_the_page_shows_and_draws_no_page(
    indico_server: IndicoServer, context: BrowserContext, booked: str
) -> None:
    session = profile_session(indico_server, context)
    try:
        await session.ensure_logged_in()
        session.fast_path = False
        by_page = _shown(await session.my_bookings())
        session.fast_path = True
        drawn = pages_asked(context)
        by_call = _shown(await session.my_bookings())
    finally:
        await session.close()
    assert by_call == by_page
    assert booked in [number for number, *_ in by_call]
    assert "list call #l1" in [purpose for *_, purpose in by_call]
    assert not [p for p in drawn if p.startswith(_LIST_PAGE)], drawn


async def test_an_answer_unlike_the_profiles_description_is_read_from_the_page(
    indico_server: IndicoServer, context: BrowserContext, booked: str
) -> None:
    # The bookings are said to be one level up: no booking where the profile says.
    session = profile_session(indico_server, context, ("items: bookings.*.*", "items: bookings.*"))
    try:
        drawn = pages_asked(context)
        await session.ensure_logged_in()  # the list read for the login check, on the page
        listed = _shown(await session.my_bookings())
    finally:
        await session.close()
    assert [p for p in drawn if p.startswith(_LIST_PAGE)], drawn  # read on the page
    assert booked in [number for number, *_ in listed]
