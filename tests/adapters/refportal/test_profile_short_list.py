"""A «my bookings» of the next days only (issue 66), on the reference portal whose list
shows today's and tomorrow's (quirk ``short_list``): with ``my_bookings.days: 2`` a
booking the account made past them is read on its own page, so it is neither missing
nor cancelled; cancelled elsewhere, its page says it is gone. Without ``days`` the list
alone says, and the booking is not in it."""

from __future__ import annotations

from datetime import time, timedelta
from pathlib import Path

import pytest

from adapters.profile import ProfileSystem, parse_site_profile
from core.browser import BrowserContext
from core.site.models import Room
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import FAST, TODAY, set_quirks

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = (Path(__file__).parents[3] / "profiles" / "refportal.yaml").read_text(encoding="utf-8")
ROOM = Room(id="main-301", building="main", number="301")


@pytest.mark.parametrize("days", [2, None])
async def test_a_booking_past_a_list_of_the_next_days_is_read_on_its_page(
    fresh_portal: RunningPortal, context: BrowserContext, days: int | None
) -> None:
    await set_quirks(fresh_portal.url, drift=["short_list"])
    text = (
        TEXT if days is None else TEXT.replace("my_bookings:\n", f"my_bookings:\n  days: {days}\n")
    )
    system = ProfileSystem(
        fresh_portal.url, parse_site_profile(text, "refportal.yaml"), retry=FAST,
        today=lambda: TODAY,
    )  # fmt: skip
    session = system.open_session(context, username="club", password="club-demo")
    try:
        day = TODAY + timedelta(days=5)  # past today and tomorrow
        made = await session.book(
            room=ROOM, day=day, start=time(12), end=time(13), purpose="Кружок"
        )
        listed = {b.number: b for b in await session.my_bookings() if b.is_live}
        if days is None:  # the list alone: the booking is not in it
            assert made.number not in listed
            return
        assert (listed[made.number].day, listed[made.number].room) == (day, "301")
        # Cancelled elsewhere (another session, its list whole): its page says so, and it
        # leaves the list as it would a list that showed it.
        await set_quirks(fresh_portal.url, drift=[])
        other = ProfileSystem(fresh_portal.url, parse_site_profile(text, "refportal.yaml"),
                              retry=FAST, today=lambda: TODAY)  # fmt: skip
        elsewhere = other.open_session(context, username="club", password="club-demo")
        await elsewhere.cancel(made.number)
        await elsewhere.close()
        await set_quirks(fresh_portal.url, drift=["short_list"])
        assert made.number not in {b.number for b in await session.my_bookings() if b.is_live}
    finally:
        await session.close()
