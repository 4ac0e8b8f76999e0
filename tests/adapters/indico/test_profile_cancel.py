"""Cancelling on Indico's pages (``cancel: at: booking_page``) when the booking's page no
longer shows the control the profile names: the booking is listed and live, so that is
the site changed — said as such, never «Бронь … не найдена»."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from playwright.async_api import BrowserContext

from adapters.profile.errors import ProfileMismatch
from scenarios.booking.errors import BookingRejected
from tests.adapters.indico.profile_harness import profile_session
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_CONTROL = "button:has-text('Cancel booking')"


async def test_a_live_booking_whose_cancel_control_is_gone_is_a_mismatch_not_not_found(
    indico_server: IndicoServer, context: BrowserContext
) -> None:
    day = indico_server.today() + timedelta(days=3)
    made_by = profile_session(indico_server, context)
    room = (await made_by.availability("7", day)).free_rooms(time(13), time(14))[0]
    made = await made_by.book(room=room, day=day, start=time(13), end=time(14), purpose="x #k1")
    await made_by.close()
    renamed = profile_session(
        indico_server, context, (_CONTROL, "button:has-text('Withdraw booking')")
    )
    try:
        with pytest.raises(ProfileMismatch) as caught:
            await renamed.cancel(made.number)
        assert not isinstance(caught.value, BookingRejected)
        assert "отмен" in caught.value.message  # the control it could not find, in words
        assert made.number in {b.number for b in await renamed.my_bookings() if b.is_live}
    finally:
        await renamed.close()
    cleaner = profile_session(indico_server, context)
    try:
        await cleaner.cancel(made.number)
    finally:
        await cleaner.close()
