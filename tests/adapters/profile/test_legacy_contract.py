"""The ``BookingSystem`` contract, unchanged, on the legacy-style site through
``profiles/legacy.yaml``: rooms across and times down, bookings as spanning cells,
seconds-since-midnight selects, a search for «my bookings», a native confirm()."""

from __future__ import annotations

from datetime import time

import pytest
import pytest_asyncio

from adapters.profile import ProfileSystem, parse_site_profile
from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy
from tests.adapters.contract import HiddenOutcomeContract
from tests.adapters.profile.legacy_harness import PROFILE, LegacyHarness
from tests.adapters.refportal.helpers import FAST
from tests.support.drift import page_path_only

__all__ = ["TestLegacyProfileContract", "TestLegacyProfilePagePathContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TestLegacyProfileContract(HiddenOutcomeContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_legacy: RunningLegacy, pool: BrowserPool) -> LegacyHarness:
        return LegacyHarness(fresh_legacy, pool)


class TestLegacyProfilePagePathContract(HiddenOutcomeContract):
    """The same through the reservation form's page: where the fast path falls back to."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_legacy: RunningLegacy, pool: BrowserPool) -> LegacyHarness:
        harness = LegacyHarness(fresh_legacy, pool)
        text = page_path_only(PROFILE.read_text(encoding="utf-8"))
        harness.system = ProfileSystem(
            fresh_legacy.url, parse_site_profile(text, "page.yaml"), retry=FAST
        )
        return harness


async def test_a_reservation_by_the_forms_own_request_never_loads_the_form(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    harness = LegacyHarness(fresh_legacy, pool)
    seen: list[str] = []
    async with pool.context() as context:
        session = harness.system.open_session(context, username="club", password="club-demo")
        try:
            shown = await session.availability(harness.building, harness.day)
            room = shown.free_rooms(harness.start, harness.end)[0]
            context.on("request", lambda r: seen.append(f"{r.method} {r.url.split('?')[0]}"))
            made = await session.book(
                room=room, day=harness.day, start=harness.start, end=harness.end,
                purpose="fast #l1",
            )  # fmt: skip
        finally:
            await session.close()
    assert not any("/reserve" in r for r in seen), seen
    assert made.purpose == "fast #l1"
    assert [(b.room, b.live) for b in await harness.site_bookings("fast #l1")] == [
        (room.number, True)
    ]


async def test_a_booking_read_from_its_page_is_not_read_again_to_complete_the_list(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    """The site's «мои брони» has no room column: a booking's room is on its own page,
    which the booking's confirmation read already; a later session of the account too."""
    harness = LegacyHarness(fresh_legacy, pool)
    seen: list[str] = []
    async with pool.context() as context:
        session = harness.system.open_session(context, username="club", password="club-demo")
        try:
            shown = await session.availability(harness.building, harness.day)
            room = shown.free_rooms(harness.start, harness.end)[0]
            made = await session.book(
                room=room, day=harness.day, start=harness.start, end=harness.end,
                purpose="once #l2",
            )  # fmt: skip
            context.on("request", lambda r: seen.append(f"{r.method} {r.url.split('?')[0]}"))
            listed = await session.my_bookings()
        finally:
            await session.close()
    async with pool.context() as context:
        later = harness.system.open_session(context, username="club", password="club-demo")
        try:
            again = await later.my_bookings()
        finally:
            await later.close()
    assert not any(f"/reservation/{made.number}" in r for r in seen), seen
    for found in (listed, again):
        assert [(b.room, b.building, b.day, b.start) for b in found if b.number == made.number] == [
            (room.number, harness.building, harness.day, harness.start)
        ]


async def test_a_token_kept_from_another_login_is_not_sent(
    fresh_legacy: RunningLegacy, pool: BrowserPool
) -> None:
    """The site ends a session sent another session's token: a session logged in anew
    (other cookies) reads its own from the form's page, and logs in once."""
    harness = LegacyHarness(fresh_legacy, pool)
    made: list[tuple[str, time, bool]] = []
    logins: list[int] = []
    for n, start in enumerate((time(10), time(11))):
        async with pool.context() as context:  # no cookies: each session logs in
            session = harness.system.open_session(context, username="club", password="club-demo")
            try:
                end = time(start.hour + 1)
                room = (await session.availability(harness.building, harness.day)).free_rooms(
                    start, end
                )[0]
                await session.book(
                    room=room, day=harness.day, start=start, end=end, purpose=f"login {n} #l3"
                )
            finally:
                await session.close()
        made.append((room.number, start, True))
        logins.append(session.logins)
    assert logins == [1, 1]
    for n, booked in enumerate(made):
        on_site = await harness.site_bookings(f"login {n} #l3")
        assert [(b.room, b.start, b.live) for b in on_site] == [booked]
