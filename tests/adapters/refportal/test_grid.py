"""Reading the availability grid through the rooms page."""

from __future__ import annotations

from datetime import time

import pytest
from playwright.async_api import BrowserContext

from adapters.profile import ProfileSession
from portal.server import RunningPortal
from scenarios.booking.errors import BookingRejected
from tests.adapters.refportal.helpers import (
    FRIDAY,
    active_bookings,
    busy_cells,
    make_session,
    room_of,
    set_quirks,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _hhmm(text: str) -> time:
    return time.fromisoformat(text)


@pytest.mark.parametrize("building", ["main", "Корпус на Чайковского"])
async def test_grid_matches_the_portal_bookings(
    session: ProfileSession, portal: RunningPortal, building: str
) -> None:
    grid = await session.availability(building, FRIDAY)
    code = "main" if building == "main" else "chaikovsky"
    assert (grid.building, grid.day) == (code, FRIDAY)
    assert grid.building_name in ("Главный корпус", "Корпус на Чайковского")
    assert (grid.opens, grid.closes) == (time(8), time(22))
    seeded = await active_bookings(portal.url, building=code, date=FRIDAY.isoformat())
    assert seeded, "the seed books some rooms every day"
    expected: dict[str, set[int]] = {}
    for b in seeded:
        span = [(_hhmm(b["start"]), _hhmm(b["end"]))]
        expected.setdefault(b["room_number"], set()).update(busy_cells(span))
    assert {r.room.id for r in grid.rooms} >= {b["room"] for b in seeded}
    for availability in grid.rooms:
        assert availability.room.id == f"{code}-{availability.room.number}"
        assert (availability.room.capacity or 0) > 0 and (availability.room.floor or 0) > 0
        assert busy_cells(availability.busy) == expected.get(availability.room.number, set())
        assert availability.mine == []
    first = seeded[0]
    start, end = _hhmm(first["start"]), _hhmm(first["end"])
    assert not grid.is_free(first["room_number"], start, end)


async def test_own_bookings_show_as_mine(context: BrowserContext, portal: RunningPortal) -> None:
    """On the rooms page's grid (its cells say «ваша бронь»); the day's call, the fast
    path's, says busy only."""
    session = make_session(context, portal, page_path=True)
    grid = await session.availability("lab", FRIDAY)
    room = grid.free_rooms(time(20), time(21))[0]
    await session.book(
        room=room_of(room.id), day=FRIDAY, start=time(20), end=time(21), purpose="Клуб"
    )
    after = await session.availability("lab", FRIDAY)
    mine = after.room(room.number)
    assert mine is not None and mine.mine == [(time(20), time(21))]
    assert not after.is_free(room.number, time(20, 30), time(21, 30))
    assert after.is_free(room.number, time(21), time(21, 30)) == grid.is_free(
        room.number, time(21), time(21, 30)
    )
    await session.close()


async def test_fully_booked_building_is_a_grid_without_a_free_cell(
    session: ProfileSession, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, full_building="lab")
    grid = await session.availability("lab", FRIDAY)
    assert len(grid.rooms) == 6
    assert all(r.busy == [(time(8), time(22))] for r in grid.rooms)
    assert grid.free_rooms(time(8), time(8, 30)) == []
    assert grid.free_rooms(time(18), time(20)) == []


async def test_unknown_building_is_rejected_with_the_choices(session: ProfileSession) -> None:
    with pytest.raises(BookingRejected) as caught:
        await session.availability("Обсерватория", FRIDAY)
    assert caught.value.code == "unknown_building"
    assert caught.value.hint is not None and "Главный корпус" in caught.value.hint
