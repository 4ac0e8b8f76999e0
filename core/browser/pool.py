"""One Chromium per process, an isolated context per scenario run.

Chromium is launched on first use and relaunched if it died. At most
``max_contexts`` contexts are open at once; further runs wait their turn (and are
told so through ``on_queued``). Contexts are closed on every path.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any

import structlog
from playwright.async_api import Browser, BrowserContext, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from core.browser.executable import chromium_args, find_chromium
from core.errors import BrowserError

__all__ = ["BrowserPool"]

log = structlog.get_logger("clubman.browser")


class BrowserPool:
    def __init__(
        self, *, executable: str | None = None, max_contexts: int = 4, headless: bool = True
    ) -> None:
        self._executable = executable
        self._headless = headless
        self._slots = asyncio.Semaphore(max_contexts)
        self._max_contexts = max_contexts
        self._launch_lock = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self.launches = 0
        self.open_contexts = 0

    async def __aenter__(self) -> BrowserPool:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(PlaywrightError):  # already gone
                await self._browser.close()
            self._browser = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None

    async def browser(self) -> Browser:
        """The shared browser, launched (again) when there is none alive."""
        async with self._launch_lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            if self._browser is not None:
                log.warning("browser.relaunch", reason="disconnected")
            executable = find_chromium(self._executable)
            if self._executable and executable is None:
                raise BrowserError(
                    f"BROWSER__EXECUTABLE={self._executable} does not exist",
                    hint="point it at a Chromium binary, or unset it to detect one",
                )
            try:
                if self._playwright is None:
                    self._playwright = await async_playwright().start()
                self._browser = await self._playwright.chromium.launch(
                    executable_path=executable, headless=self._headless, args=chromium_args()
                )
            except PlaywrightError as exc:
                raise BrowserError(
                    "Chromium could not be started",
                    hint="install chromium (apt-get install chromium) or set BROWSER__EXECUTABLE",
                ) from exc
            self.launches += 1
            log.info("browser.launched", executable=executable, launches=self.launches)
            return self._browser

    @asynccontextmanager
    async def context(
        self,
        *,
        storage_state: dict[str, Any] | None = None,
        on_queued: Callable[[], Awaitable[None]] | None = None,
    ) -> AsyncIterator[BrowserContext]:
        """An isolated context (own cookies), closed on exit whatever happens."""
        if self._slots.locked() and on_queued is not None:
            await on_queued()
        async with self._slots:
            browser = await self.browser()
            try:
                context = await browser.new_context(
                    storage_state=storage_state,  # type: ignore[arg-type]
                    locale="ru-RU",
                    timezone_id="Europe/Moscow",
                    # A service worker's requests bypass context.route, so the brain's
                    # network guard (core/browser/guard.py) could not see them.
                    service_workers="block",
                )
            except PlaywrightError as exc:
                raise BrowserError("could not open a browser context") from exc
            self.open_contexts += 1
            try:
                yield context
            finally:
                self.open_contexts -= 1
                # If the browser died with it, the next run relaunches the browser.
                with contextlib.suppress(PlaywrightError):
                    await context.close()
