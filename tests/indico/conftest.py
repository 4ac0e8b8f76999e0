"""The session's Indico (``tests/conftest.py``) and one Chromium for the whole test
session, and one logged-in club session for this package.

A login costs ~2 s (Indico's pages pull ~50 assets from its dev server), so tests share
``club``; a test that spoils its session or logs in itself takes ``context`` (fresh).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Route, async_playwright

from adapters.indico import IndicoClient, login
from tests.support.indico_server import IndicoServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


_NOT_LOOPBACK = re.compile(r"^(?!https?://127\.0\.0\.1[:/])[a-z]+://")


async def _abort(route: Route) -> None:
    await route.abort()


async def _new_context(browser: Browser) -> BrowserContext:
    """A context whose pages may reach 127.0.0.1 only (Indico pages name no outside host
    in this setup, but a stray font or map tile must not leave the machine)."""
    ctx = await browser.new_context(locale="ru-RU", timezone_id="Europe/Moscow")
    await ctx.route(_NOT_LOOPBACK, _abort)
    return ctx


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    async with async_playwright() as pw:
        opened = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield opened
        await opened.close()


@pytest_asyncio.fixture(loop_scope="session")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    """A fresh browser context of its own (no cookies)."""
    ctx = await _new_context(browser)
    yield ctx
    await ctx.close()


@pytest.fixture(scope="package")
def indico_server(indico_server: IndicoServer) -> Iterator[IndicoServer]:
    """The session's Indico, this package's bookings apart from other packages'."""
    with indico_server.seeded_only() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def club(browser: Browser, indico_server: IndicoServer) -> AsyncIterator[IndicoClient]:
    """The club's account, logged in once through Indico's login page; shared by tests."""
    ctx = await _new_context(browser)
    account = indico_server.club
    yield await login(
        await ctx.new_page(), indico_server.base_url, account.username, account.password
    )
    await ctx.close()
