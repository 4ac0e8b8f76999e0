"""Portal fixtures: one Chromium per session, a fresh portal (with /_test API) per test."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from portal.server import RunningPortal, running_portal
from tests.portal.helpers import TestClock

_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def browser() -> AsyncIterator[Browser]:
    args = [*_ARGS, "--no-sandbox"] if os.geteuid() == 0 else list(_ARGS)
    executable = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    executable = executable or shutil.which("chromium")
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=executable, args=args)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def clock() -> TestClock:
    return TestClock()


@pytest_asyncio.fixture(loop_scope="session")
async def portal(clock: TestClock) -> AsyncIterator[RunningPortal]:
    async with running_portal(seed=1, test_api=True, clock=clock) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session")
async def context(browser: Browser, portal: RunningPortal) -> AsyncIterator[BrowserContext]:
    ctx = await browser.new_context(base_url=portal.url, locale="ru-RU")
    ctx.set_default_timeout(10_000)
    yield ctx
    await ctx.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(context: BrowserContext) -> Page:
    return await context.new_page()
