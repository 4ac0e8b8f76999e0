"""A picture of what a browser context shows, for a failed step's report."""

from __future__ import annotations

import contextlib

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError

__all__ = ["screenshot"]


async def screenshot(context: BrowserContext) -> bytes | None:
    """A full-page PNG of the newest page, if the browser can still give one."""
    if not context.pages:
        return None
    with contextlib.suppress(PlaywrightError):
        return await context.pages[-1].screenshot(full_page=True)
    return None
