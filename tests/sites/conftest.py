"""The session's MRBS (``tests/conftest.py``), one Chromium for the session, and a fresh
browser context per test.

Every test starts with MRBS as seeded (the club's bookings deleted, others' too) and this
package leaves it so.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Route, async_playwright

from tests.sites.mrbs import MrbsServer

CHROMIUM = "/usr/bin/chromium"
_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
_NOT_LOOPBACK = re.compile(r"^(?!https?://127\.0\.0\.1[:/])[a-z]+://")


async def _abort(route: Route) -> None:
    await route.abort()


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def browser() -> AsyncIterator[Browser]:
    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if executable is None:
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    args = [*_ARGS, "--no-sandbox"] if os.geteuid() == 0 else list(_ARGS)
    async with async_playwright() as pw:
        opened = await pw.chromium.launch(executable_path=executable, args=args)
        yield opened
        await opened.close()


@pytest_asyncio.fixture(loop_scope="session")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    """A fresh context (no cookies) as a Russian user in Moscow would have, whose pages
    reach 127.0.0.1 only (MRBS names no outside host, but nothing may leave the machine)."""
    ctx = await browser.new_context(locale="ru-RU", timezone_id="Europe/Moscow")
    ctx.set_default_timeout(15_000)
    await ctx.route(_NOT_LOOPBACK, _abort)
    yield ctx
    await ctx.close()


@pytest.fixture(scope="package")
def mrbs_server(mrbs_server: MrbsServer) -> Iterator[MrbsServer]:
    """The session's MRBS, this package's bookings apart from other packages'."""
    with mrbs_server.seeded_only() as server:
        yield server


@pytest.fixture(autouse=True)
def _as_seeded(mrbs_server: MrbsServer) -> None:
    """Each test starts from the seed alone: no booking of the club's, no one's extra."""
    mrbs_server.as_seeded()
