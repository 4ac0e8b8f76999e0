"""A building's day by the call the reference portal's rooms page draws its grid from
(issue 29): on the fast path, ``profiles/refportal.yaml`` reads ``/api/availability``
without drawing the page, and every room is free and taken at the very times the drawn
grid shows; an answer for another day, or unlike the profile's description, is read from
the page."""

from __future__ import annotations

from datetime import time

import pytest
from playwright.async_api import BrowserContext

from portal.server import RunningPortal
from scenarios.booking.models import Availability
from tests.adapters.refportal.helpers import FRIDAY, PROFILE, page_loads, profile_session

pytestmark = pytest.mark.asyncio(loop_scope="session")

_CALL = "url: /api/availability?building={building|url}&date={date|iso}"


def _day_loads(context: BrowserContext) -> list[str]:
    """Every day's rooms page the browser loads from now on (not the list of buildings,
    read once a new system's first session)."""
    return page_loads(context, lambda url: "/rooms" in url and "date=" in url)


def _slots(shown: Availability) -> dict[tuple[str, str, int | None, int | None], list[bool]]:
    """Each room (id, number, floor, capacity): whether each half hour is free."""
    halves = [time(8 + n // 2, 30 * (n % 2)) for n in range(28)]
    ends = [*halves[1:], time(22)]
    return {
        (r.room.id, r.room.number, r.room.floor, r.room.capacity): [
            r.is_free(a, b) for a, b in zip(halves, ends, strict=True)
        ]
        for r in shown.rooms
    }


async def _both(
    portal: RunningPortal, context: BrowserContext, text: str
) -> tuple[Availability, Availability, list[str]]:
    """The day on the fast path, the day through the page (the same session with the fast
    path off) and the rooms pages the first loaded."""
    session = profile_session(portal, context, text)
    try:
        await session.ensure_logged_in()
        loads = _day_loads(context)
        called = await session.availability("main", FRIDAY)
        shown = list(loads)
        session.fast_path = False
        drawn = await session.availability("main", FRIDAY)
    finally:
        await session.close()
    return called, drawn, shown


async def test_the_day_by_the_grids_own_call_is_the_day_the_grid_shows(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    """Others' bookings that day (the portal's seed), and one of the club's own."""
    text = PROFILE.read_text(encoding="utf-8")
    session = profile_session(fresh_portal, context, text)
    try:
        await session.ensure_logged_in()
        room = (await session.availability("main", FRIDAY)).free_rooms(time(18), time(19))[0]
        await session.book(room=room, day=FRIDAY, start=time(18), end=time(19), purpose="day")
    finally:
        await session.close()
    called, drawn, loads = await _both(fresh_portal, context, text)
    assert not loads, loads  # no day's page: the call answered
    assert _slots(called) == _slots(drawn)
    assert not next(r for r in called.rooms if r.room == room).is_free(time(18), time(19))
    assert sum(not all(free) for free in _slots(called).values()) > 1  # the seed's, too


@pytest.mark.parametrize(
    ("written", "changed"),
    [
        ("date={date|iso}", "date=2026-11-23"),  # a day the profile does not ask for
        ("lines: rooms.*", "lines: salas.*"),  # a part the answer does not have
    ],
    ids=["another-day", "unlike"],
)
async def test_an_answer_not_for_the_day_or_unlike_the_profile_is_read_from_the_page(
    fresh_portal: RunningPortal, context: BrowserContext, written: str, changed: str
) -> None:
    text = PROFILE.read_text(encoding="utf-8")
    call = text.index(_CALL)
    changed_text = text[:call] + text[call:].replace(written, changed, 1)
    assert changed_text != text
    called, drawn, loads = await _both(fresh_portal, context, changed_text)
    assert loads, loads  # the day's page was drawn
    assert _slots(called) == _slots(drawn)
