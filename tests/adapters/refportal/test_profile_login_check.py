"""A profile session's check that saved cookies still hold (``ensure_logged_in``), on the
reference portal in a real Chromium: a plain request for «my bookings»'s address, no page
drawn; cookies the site no longer takes are told by the login page the request lands
on, and the session logs in again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import BrowserContext

from adapters.profile.session import ProfileSession
from core.browser import BrowserPool
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import FRIDAY, page_loads, profile_session

pytestmark = pytest.mark.asyncio(loop_scope="session")


@asynccontextmanager
async def _opened(portal: RunningPortal, context: BrowserContext) -> AsyncIterator[ProfileSession]:
    session = profile_session(portal, context)
    try:
        yield session
    finally:
        await session.close()


async def _saved_login(portal: RunningPortal, context: BrowserContext) -> dict[str, Any]:
    async with _opened(portal, context) as session:
        await session.ensure_logged_in()
        assert session.logins == 1
        return await session.storage_state()


async def test_saved_cookies_the_site_takes_are_checked_without_a_page(
    fresh_portal: RunningPortal, context: BrowserContext, pool: BrowserPool
) -> None:
    state = await _saved_login(fresh_portal, context)
    async with pool.context(storage_state=state) as again:
        loads = page_loads(again, lambda url: True)
        async with _opened(fresh_portal, again) as session:
            await session.ensure_logged_in()
            assert loads == []  # no page: the address answered as itself
            assert session.logins == 0
            day = await session.availability("main", FRIDAY)  # and the cookies do hold
            assert day.rooms
            assert session.logins == 0


async def test_saved_cookies_the_site_no_longer_takes_log_in_again(
    fresh_portal: RunningPortal, context: BrowserContext, pool: BrowserPool
) -> None:
    state = await _saved_login(fresh_portal, context)
    async with pool.context(storage_state=state) as ended:
        await ended.request.get(f"{fresh_portal.url}/logout")  # the site ends that session
    async with pool.context(storage_state=state) as again, _opened(fresh_portal, again) as session:
        await session.ensure_logged_in()
        assert session.logins == 1  # the request landed on the login page
        await session.my_bookings()  # read on the new login: not asked again
        assert session.logins == 1
