"""The ``BookingSystem`` contract on the reference portal, driven by the profile adapter
with ``profiles/refportal.yaml`` (what ``PORTAL__KIND=refportal`` runs), on its fast path
and on its page path."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from adapters.profile import ProfileSystem, parse_site_profile
from core.browser import BrowserPool
from portal.server import RunningPortal
from tests.adapters.contract import HiddenOutcomeContract
from tests.adapters.refportal.harness import RefPortalHarness
from tests.adapters.refportal.helpers import FAST
from tests.support.drift import page_path_only

__all__ = ["TestRefPortalProfileContract", "TestRefPortalProfilePagePathContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"


class TestRefPortalProfileContract(HiddenOutcomeContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_portal: RunningPortal, pool: BrowserPool) -> RefPortalHarness:
        return RefPortalHarness(fresh_portal, pool)


class TestRefPortalProfilePagePathContract(HiddenOutcomeContract):
    """The same through the booking form's page: where the fast path falls back to."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_portal: RunningPortal, pool: BrowserPool) -> RefPortalHarness:
        harness = RefPortalHarness(fresh_portal, pool)
        text = page_path_only(PROFILE.read_text(encoding="utf-8"))
        harness.system = ProfileSystem(
            fresh_portal.url, parse_site_profile(text, "page.yaml"), retry=FAST
        )
        return harness


async def test_an_answer_the_profile_cannot_read_is_looked_up_not_sent_again(
    fresh_portal: RunningPortal, pool: BrowserPool
) -> None:
    """The form was sent and the page after it matches neither the booking's page nor a
    message (here: the profile's «booked» address is wrong): the outcome is unknown, so
    «my bookings» is read first — the booking is found there and nothing is sent again."""
    text = PROFILE.read_text(encoding="utf-8").replace(
        "booked: ^/booking/(\\d+)$", "booked: ^/bookings/(\\d+)$"
    )
    system = ProfileSystem(fresh_portal.url, parse_site_profile(text, "wrong.yaml"), retry=FAST)
    harness = RefPortalHarness(fresh_portal, pool)
    async with pool.context() as context:
        session = system.open_session(context, username="club", password="club-demo")
        try:
            free = await session.availability(harness.building, harness.day)
            room = free.free_rooms(harness.start, harness.end)[0]
            booking = await session.book(
                room=room, day=harness.day, start=harness.start, end=harness.end,
                purpose="lost answer #r9",
            )  # fmt: skip
        finally:
            await session.close()
    assert booking.room == room.number and booking.purpose == "lost answer #r9"
    assert len(await harness.site_bookings("lost answer #r9")) == 1
