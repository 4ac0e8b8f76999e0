"""What every adapter's session does the same with its browser: open its page (guarded),
keep the login (the context's storage state) and close its page without hanging."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from core.browser.guard import NetworkGuard
from core.errors import BrowserError

__all__ = ["close_page", "open_page", "storage_state"]

_CLOSE_SECONDS = 3.0  # longest wait for a page to close (see close_page)


async def open_page(
    context: BrowserContext, guard: NetworkGuard, *, timeout_ms: float, site: str
) -> Page:
    """A new page on ``context`` with the session's timeouts. ``guard`` watches the
    context first: the page may open a WebSocket as it loads, or leave a beacon behind,
    long before a brain-chosen action is judged."""
    try:
        await guard.watch()
        page = await context.new_page()
    except PlaywrightError as exc:
        raise BrowserError(f"could not open a page for {site}") from exc
    page.set_default_timeout(timeout_ms)
    page.set_default_navigation_timeout(timeout_ms)
    return page


async def storage_state(context: BrowserContext) -> dict[str, Any]:
    """Cookies and local storage of ``context``, to be saved (encrypted) for next time."""
    try:
        state = await context.storage_state()
    except PlaywrightError as exc:
        raise BrowserError("could not read the browser's storage state") from exc
    return dict(state)


async def close_page(page: Page | None) -> None:
    """Close ``page`` if open. Bounded: Chromium can acknowledge a close and keep the page
    (seen on its error page after a refused connection; playwright#42366), and then
    ``page.close()`` never returns. The context's own close ends the page anyway."""
    if page is None or page.is_closed():
        return
    with contextlib.suppress(PlaywrightError, TimeoutError):
        async with asyncio.timeout(_CLOSE_SECONDS):
            await page.close()
