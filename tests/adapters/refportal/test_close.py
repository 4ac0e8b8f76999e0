"""Closing a session whose page is Chromium's error page (the portal unreachable)."""

from __future__ import annotations

import asyncio

import pytest

from adapters.profile import ProfileSession
from core.browser import BrowserPool
from core.site.errors import PortalUnavailable
from storage import free_port
from tests.adapters.refportal.helpers import FAST
from tests.support.refportal import refportal_system

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_close_after_the_portal_refused_the_connection_returns_regression(
    pool: BrowserPool,
) -> None:
    # The hang: page.close() on the error page of a refused connection never returned,
    # so a run's clean-up (and /login's check) stalled while the portal was down.
    for _ in range(2):
        async with pool.context() as context:
            url = f"http://127.0.0.1:{free_port()}"
            session = ProfileSession(
                context,
                refportal_system(url).loaded,
                base_url=url,
                username="club",
                password="club-demo",
                retry=FAST,
                timeout_ms=3000,
            )
            with pytest.raises(PortalUnavailable):
                await session.ensure_logged_in()
            async with asyncio.timeout(30):
                await session.close()
