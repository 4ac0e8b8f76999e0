"""What every adapter's session does the same with its browser: keep the login
(the context's storage state) and close its page without hanging."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from core.errors import BrowserError

__all__ = ["close_page", "storage_state"]

_CLOSE_SECONDS = 3.0  # longest wait for a page to close (see close_page)


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
