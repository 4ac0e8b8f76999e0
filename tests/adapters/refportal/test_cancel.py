"""Cancelling from «Мои брони» through the confirm() dialog."""

from __future__ import annotations

from datetime import time

import pytest

from adapters.profile import ProfileSession
from portal.server import RunningPortal
from scenarios.booking.errors import BookingRejected
from tests.adapters.refportal.helpers import FRIDAY, active_bookings, room_of
from tests.portal.helpers import free_room

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_cancel_accepts_the_confirm_dialog_and_the_row_is_gone(
    session: ProfileSession, portal: RunningPortal
) -> None:
    booked = []
    for start in (time(18), time(19)):
        room_id = await free_room(portal.url, "lab", FRIDAY, "18:00", "20:00")
        booked.append(
            await session.book(
                room=room_of(room_id),
                day=FRIDAY,
                start=start,
                end=time(start.hour, 30),
                purpose="Клуб",
            )
        )
    await session.cancel(booked[0].number)
    assert [b.number for b in await session.my_bookings()] == [booked[1].number]
    assert [str(b["id"]) for b in await active_bookings(portal.url, user="club")] == [
        booked[1].number
    ]


async def test_cancelling_a_booking_that_is_not_listed_is_rejected(
    session: ProfileSession, portal: RunningPortal
) -> None:
    with pytest.raises(BookingRejected) as caught:
        await session.cancel("999999")
    assert caught.value.code == "not_found"
