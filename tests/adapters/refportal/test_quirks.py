"""The portal's chaos quirks: 500/502 pages, latency, the other layout."""

from __future__ import annotations

import time as clock
from datetime import time

import pytest
from playwright.async_api import BrowserContext, Response

from adapters.profile import ProfileSession
from core.browser.retry import RetryPolicy
from core.site.errors import PortalUnavailable
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import (
    FRIDAY,
    active_bookings,
    make_session,
    room_of,
    set_quirks,
)
from tests.portal.helpers import free_room

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_500_and_502_pages_are_retried_until_they_pass(
    context: BrowserContext, portal: RunningPortal
) -> None:
    statuses: list[int] = []

    def record(response: Response) -> None:
        statuses.append(response.status)

    context.on("response", record)
    patient = make_session(context, portal, retry=RetryPolicy(attempts=10, base_delay=0.01))
    await set_quirks(portal.url, error_rate=0.3, error_seed=5)
    await patient.ensure_logged_in()
    grid = await patient.availability("main", FRIDAY)
    assert len(grid.rooms) == 30
    assert await patient.my_bookings() == []
    assert {500, 502} & set(statuses), "the quirk should have failed some requests"

    # The scenario's way to book under chaos: a lost answer is checked in «Мои брони».
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    for _ in range(10):
        try:
            await patient.book(
                room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
            )
            break
        except PortalUnavailable:
            if any(b.room_id == room_id for b in await patient.my_bookings()):
                break
    assert len(await active_bookings(portal.url, user="club")) == 1
    await patient.close()


async def test_a_portal_that_always_fails_is_unavailable(
    session: ProfileSession, portal: RunningPortal
) -> None:
    await session.ensure_logged_in()
    await set_quirks(portal.url, error_rate=1.0)
    for action in (session.ensure_logged_in, session.my_bookings):
        with pytest.raises(PortalUnavailable) as caught:
            await action()
        assert "HTTP 50" in caught.value.message
    with pytest.raises(PortalUnavailable):
        await session.availability("main", FRIDAY)


async def test_latency_is_waited_out(session: ProfileSession, portal: RunningPortal) -> None:
    await set_quirks(portal.url, latency_ms=200)
    began = clock.monotonic()
    grid = await session.availability("lab", FRIDAY)
    assert clock.monotonic() - began >= 0.6  # /rooms, «Показать» and the grid's JSON, at least
    room = grid.free_rooms(time(18), time(19))[0]
    booking = await session.book(
        room=room_of(room.id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
    )
    assert [b.number for b in await session.my_bookings()] == [booking.number]


async def test_latency_beyond_the_timeout_is_unavailable(
    context: BrowserContext, portal: RunningPortal
) -> None:
    hasty = make_session(
        context, portal, timeout_ms=400, retry=RetryPolicy(attempts=2, base_delay=0.01)
    )
    await set_quirks(portal.url, latency_ms=1500)
    with pytest.raises(PortalUnavailable):
        await hasty.ensure_logged_in()
    await hasty.close()


async def test_the_alternative_layout_changes_nothing_for_the_profile(
    session: ProfileSession, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, layout="alt")
    await session.ensure_logged_in()
    grid = await session.availability("chaikovsky", FRIDAY)
    assert len(grid.rooms) == 16
    room = grid.free_rooms(time(19), time(20))[0]
    booking = await session.book(
        room=room_of(room.id), day=FRIDAY, start=time(19), end=time(20), purpose="Клуб", attendees=5
    )
    assert booking.building == "chaikovsky"
    assert await session.my_bookings() == [booking.model_copy(update={"room_id": ""})]
    after = await session.availability("chaikovsky", FRIDAY)
    assert not after.is_free(room.number, time(19), time(20))
    await session.cancel(booking.number)
    assert await session.my_bookings() == []
    summary = await session.page_summary()
    assert summary.heading == "Мои брони" and "Аудитории" in summary.links
