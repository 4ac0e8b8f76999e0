"""A building's day by the call Indico's own pages make (issue 29): on the fast path,
``profiles/indico.yaml`` reads what holds each room from ``/rooms/api/timeline`` without
drawing the timeline, and every room is free and taken at the very times the drawn
timeline shows; an answer unlike the profile's description is read from the page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import date, datetime, time, timedelta

import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext

from scenarios.booking.models import Availability
from tests.adapters.indico.profile_harness import pages_asked, profile_session
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_TIMELINE = "GET rooms/calendar?view=timeline&date="  # the day's page, not the buildings'


def _slots(shown: Availability) -> dict[tuple[str, str, int | None], list[bool]]:
    """Each room (id, number, floor): whether each half hour from 08:00 to 22:00 is free."""
    halves = [time(8 + n // 2, 30 * (n % 2)) for n in range(28)]
    ends = [*halves[1:], time(22)]
    return {
        (r.room.id, r.room.number, r.room.floor): [
            r.is_free(a, b) for a, b in zip(halves, ends, strict=True)
        ]
        for r in shown.rooms
    }


@pytest_asyncio.fixture(loop_scope="session")
async def held(indico_server: IndicoServer) -> AsyncIterator[date]:
    """A day on which a room of building 7 is booked by someone else, 10:00–11:30."""
    day = indico_server.today() + timedelta(days=11)
    rooms = [r for r in await asyncio.to_thread(indico_server.rooms) if r.building == "7"]
    room = min((r for r in rooms if r.is_reservable), key=lambda r: r.name)
    await asyncio.to_thread(
        indico_server.add_booking, room.id,
        datetime.combine(day, time(10)), datetime.combine(day, time(11, 30)),
    )  # fmt: skip
    yield day
    await asyncio.to_thread(indico_server.as_seeded)


@pytest.mark.parametrize("building", ["7", "Библиотека"])
async def test_the_day_by_indicos_own_call_is_the_day_the_timeline_shows_and_draws_none(
    indico_server: IndicoServer, context: BrowserContext, held: date, building: str
) -> None:
    session = profile_session(indico_server, context)
    try:
        await session.ensure_logged_in()
        for day in (indico_server.today() + timedelta(days=1), held):
            session.fast_path = False
            by_page = _slots(await session.availability(building, day))
            session.fast_path = True
            drawn = pages_asked(context)
            by_call = _slots(await session.availability(building, day))
            assert by_call == by_page, day
            assert not [p for p in drawn if p.startswith(_TIMELINE)], drawn
            assert by_call, day
        if building == "7":  # the room booked that day is taken then, by both reads
            assert any(not all(free) for free in by_call.values())
    finally:
        await session.close()


async def test_an_answer_unlike_the_profiles_description_is_read_from_the_timeline(
    indico_server: IndicoServer, context: BrowserContext, held: date
) -> None:
    # Each room's part is said to be elsewhere: no room asked about has one.
    session = profile_session(indico_server, context, ('key: "0"', 'key: "2"'))
    try:
        await session.ensure_logged_in()
        drawn = pages_asked(context)
        shown = _slots(await session.availability("7", held))
    finally:
        await session.close()
    assert [p for p in drawn if p.startswith(_TIMELINE)], drawn  # read on the page
    assert any(not all(free) for free in shown.values())
