"""The ``BookingSystem`` contract: one suite every adapter passes unchanged.

An adapter's test module subclasses ``BookingSystemContract`` (or its login part alone,
``LoginContract``) and provides the ``site`` fixture: a ``SiteHarness`` that knows how to
reach the real site from the outside (someone else's booking, the site's own record of
bookings, an expired session, an outage). Everything the tests check about the site is
read through the harness, not through the adapter under test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import date, time
from typing import Protocol

import pytest
import pytest_asyncio

from core.browser import BrowserPool
from core.site import LoginFailed, OutcomeUnconfirmed, PortalUnavailable, Room
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.port import BookingSession, BookingSystem
from scenarios.booking.selection import Want, choose_rooms

__all__ = [
    "BookingSystemContract",
    "HiddenOutcomeContract",
    "HidingSite",
    "LoginContract",
    "SiteBooking",
    "SiteHarness",
    "a_hidden_booking_is_sent_once_and_told_plainly",
    "a_wrong_password_is_login_failed",
]


@dataclass(frozen=True)
class SiteBooking:
    """A booking as the site itself records it."""

    room: str  # room number
    day: date
    start: time
    end: time
    purpose: str
    live: bool  # holds the room (not cancelled or rejected)


class SiteHarness(Protocol):
    system: BookingSystem
    username: str
    password: str
    building: str  # a building code with at least three adjacent rooms free at ``day``
    day: date
    start: time
    end: time

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None: ...

    async def site_bookings(self, purpose: str) -> list[SiteBooking]: ...

    async def expire_sessions(self) -> None: ...

    def outage(self) -> AbstractAsyncContextManager[None]:
        """While open, the site answers every request with a server error."""
        ...


class LoginContract:
    """The contract's login part: a session logs in, an ended one logs in again, a wrong
    password is ``LoginFailed``. Subclass it alone to check a login by itself (a drafted
    profile's); ``BookingSystemContract`` holds it. Define the ``site`` and ``pool``
    fixtures."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def session(self, site: SiteHarness, pool: BrowserPool) -> AsyncIterator[BookingSession]:
        async with pool.context() as context:
            opened = site.system.open_session(
                context, username=site.username, password=site.password
            )
            try:
                yield opened
            finally:
                await opened.close()

    async def test_an_expired_session_logs_in_again(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        await session.ensure_logged_in()
        logins = session.logins
        await site.expire_sessions()
        assert (await session.availability(site.building, site.day)).rooms
        assert session.logins == logins + 1

    async def test_a_saved_session_the_site_ended_is_logged_in_again_at_once(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        await session.ensure_logged_in()
        logins = session.logins
        await session.ensure_logged_in()  # the site takes the saved session
        assert session.logins == logins
        await site.expire_sessions()
        await session.ensure_logged_in()
        assert session.logins == logins + 1
        assert (await session.availability(site.building, site.day)).rooms
        assert session.logins == logins + 1

    async def test_a_wrong_password_is_login_failed(
        self, site: SiteHarness, pool: BrowserPool
    ) -> None:
        await a_wrong_password_is_login_failed(site, pool)


class BookingSystemContract(LoginContract):
    """Subclass it and define the ``site`` and ``pool`` fixtures."""

    async def _free_rooms(
        self, site: SiteHarness, session: BookingSession, count: int
    ) -> list[Room]:
        free = await session.availability(site.building, site.day)
        rooms = choose_rooms(free, Want(count=count, adjacent=True), site.start, site.end)
        assert rooms, f"{count} adjacent rooms free in {site.building} on {site.day}"
        return rooms

    async def test_catalogue_names_buildings_and_their_rooms(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        await session.ensure_logged_in()
        catalogue = await session.catalogue()
        codes = {b.code for b in catalogue.buildings}
        assert site.building in codes
        assert all(b.name for b in catalogue.buildings)
        assert catalogue.rooms_in(site.building), "the building's rooms are listed"
        assert {room.building for room in catalogue.rooms} <= codes
        rules = catalogue.rules
        assert rules.opens < rules.closes and rules.step_minutes > 0
        assert rules.longest_minutes > 0 and rules.horizon_days > 0

    async def test_three_adjacent_free_rooms_are_side_by_side(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        rooms = await self._free_rooms(site, session, 3)
        assert len({(r.building, r.floor) for r in rooms}) == 1
        positions = [r.position for r in rooms]
        assert positions == [positions[0], positions[0] + 1, positions[0] + 2]  # type: ignore[operator]

    async def test_someone_elses_booking_shows_as_busy(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        room = (await self._free_rooms(site, session, 1))[0]
        await site.book_as_someone_else(room, site.day, site.start, site.end)
        free = await session.availability(site.building, site.day)
        shown = free.room(room.number)
        assert shown is not None and not shown.is_free(site.start, site.end)
        with pytest.raises(SlotTaken):
            await session.book(
                room=room, day=site.day, start=site.start, end=site.end, purpose="contract taken"
            )
        assert await site.site_bookings("contract taken") == []

    async def test_book_is_listed_on_the_site_and_in_my_bookings(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        room = (await self._free_rooms(site, session, 1))[0]
        purpose = "contract book #r1"
        booking = await session.book(
            room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
        )
        assert (booking.building, booking.room, booking.day) == (
            site.building,
            room.number,
            site.day,
        )
        assert (booking.start, booking.end, booking.is_live) == (site.start, site.end, True)
        on_site = await site.site_bookings(purpose)
        assert [(b.room, b.day, b.start, b.end, b.live) for b in on_site] == [
            (room.number, site.day, site.start, site.end, True)
        ]
        mine = [b for b in await session.my_bookings() if b.number == booking.number]
        assert len(mine) == 1 and mine[0].is_live and mine[0].purpose.strip() == purpose

    async def test_booking_again_finds_the_existing_booking(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        room = (await self._free_rooms(site, session, 1))[0]
        purpose = "contract again #r2"
        first = await session.book(
            room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
        )
        again = await session.book(
            room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
        )
        assert again.number == first.number
        assert len(await site.site_bookings(purpose)) == 1

    async def test_cancel_frees_the_room(self, site: SiteHarness, session: BookingSession) -> None:
        room = (await self._free_rooms(site, session, 1))[0]
        purpose = "contract cancel #r3"
        booking = await session.book(
            room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
        )
        await session.cancel(booking.number)
        with pytest.raises(BookingRejected):  # not among the live bookings any more
            await session.cancel(booking.number)
        assert not any(
            b.number == booking.number and b.is_live for b in await session.my_bookings()
        )
        assert [b.live for b in await site.site_bookings(purpose)] in ([], [False])
        free = await session.availability(site.building, site.day)
        assert free.is_free(room.number, site.start, site.end)

    async def test_an_outage_is_portal_unavailable(
        self, site: SiteHarness, session: BookingSession
    ) -> None:
        await session.ensure_logged_in()
        async with site.outage():
            with pytest.raises(PortalUnavailable):
                await session.availability(site.building, site.day)
        assert (await session.availability(site.building, site.day)).rooms


class HidingSite(SiteHarness, Protocol):
    def hidden_outcome(self) -> AbstractAsyncContextManager[None]:
        """While open, the site makes a booking but answers it with no number (in place,
        or an answer lost), and its «my bookings» lists nothing on ``day``."""
        ...


class HiddenOutcomeContract(BookingSystemContract):
    """The contract's part for a site that can hide a booking it made (``HidingSite``):
    the reference portal and the legacy site through their drifts; Indico behind a proxy
    that loses the create's answer (``tests/adapters/indico/test_hidden_outcome.py``)."""

    async def test_a_booking_the_site_hides_is_sent_once_and_told_plainly(
        self, site: HidingSite, session: BookingSession
    ) -> None:
        room = (await self._free_rooms(site, session, 1))[0]
        await a_hidden_booking_is_sent_once_and_told_plainly(site, session, room)


async def a_hidden_booking_is_sent_once_and_told_plainly(
    site: HidingSite, session: BookingSession, room: Room
) -> None:
    """Made, its number not shown, not listed: the day shows the room held, so the booking
    may be ours — one booking on the site, nothing sent again, and an answer that says so
    (never «taken» or a failure)."""
    purpose = "contract hidden #r4"
    async with site.hidden_outcome():
        with pytest.raises(OutcomeUnconfirmed) as caught:
            await session.book(
                room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
            )
    on_site = await site.site_bookings(purpose)
    assert [(b.room, b.day, b.start, b.live) for b in on_site] == [
        (room.number, site.day, site.start, True)
    ]
    assert caught.value.room == room.number
    assert caught.value.hint is not None and "не отправляю" in caught.value.hint
    # The site shown as it is again: the booking is there, and found, not made anew.
    again = await session.book(
        room=room, day=site.day, start=site.start, end=site.end, purpose=purpose
    )
    assert again.room == room.number and len(await site.site_bookings(purpose)) == 1


async def a_wrong_password_is_login_failed(site: SiteHarness, pool: BrowserPool) -> LoginFailed:
    """A session with a wrong password: ``LoginFailed`` (returned: its words are the
    site's, which a site's own test may check)."""
    async with pool.context() as context:
        wrong = site.system.open_session(
            context, username=site.username, password=site.password + "-wrong"
        )
        try:
            with pytest.raises(LoginFailed) as caught:
                await wrong.ensure_logged_in()
        finally:
            await wrong.close()
    return caught.value
