"""The operator's browser for a demonstration: a Chromium they already run, attached over
CDP (its first window), or a visible one launched here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import BrowserContext, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

from core.errors import BrowserError

__all__ = ["operators_browser"]


@asynccontextmanager
async def operators_browser(
    url: str, *, executable: str | None, cdp: str | None
) -> AsyncIterator[tuple[BrowserContext, Page]]:
    """The operator's browser: attached over CDP (its first window), or a visible one
    launched here and opened at ``url``."""
    async with async_playwright() as playwright:
        try:
            if cdp is not None:
                browser = await playwright.chromium.connect_over_cdp(cdp)
                context = browser.contexts[0] if browser.contexts else await browser.new_context()
                page = context.pages[0] if context.pages else await context.new_page()
            else:
                browser = await playwright.chromium.launch(
                    executable_path=executable, headless=False
                )
                context = await browser.new_context()
                page = await context.new_page()
            if cdp is None or page.url in ("", "about:blank"):
                await page.goto(url)
        except PlaywrightError as exc:
            where = f"over CDP at {cdp}" if cdp else "(a visible window)"
            raise BrowserError(f"could not open the browser {where}: {exc.message}") from exc
        try:
            yield context, page
        finally:
            if cdp is None:
                await browser.close()
