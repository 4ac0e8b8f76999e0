"""What a page's scripts are fetching from the site: for pages they draw, «quiet» (no
request of the site's for half a second) is when what the page shows is its answer, and
a fetch that failed means what it shows is not (an empty list after a failed fetch looks
just like an empty list)."""

from __future__ import annotations

import asyncio
from time import monotonic
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.async_api import Page, Request, Response

from core.browser.retry import Transient

__all__ = ["Traffic"]

_QUIET_SECONDS = 0.5
_FETCHES = ("xhr", "fetch")


class _PageTraffic:
    def __init__(self, host: str) -> None:
        self.host = host
        self.running: set[Request] = set()
        self.last = monotonic()
        self.failed: list[str] = []
        # The fetches of the page before the last load: going away cancels them, which
        # says nothing of the page loaded now.
        self.earlier: set[Request] = set()

    def _ours(self, request: Request) -> bool:
        return request.resource_type in _FETCHES and urlsplit(request.url).netloc == self.host

    def started(self, request: Request) -> None:
        if self._ours(request):
            self.running.add(request)
            self.last = monotonic()

    def finished(self, request: Request) -> None:
        self.earlier.discard(request)
        if request in self.running:
            self.running.discard(request)
            self.last = monotonic()

    def broke(self, request: Request) -> None:
        if self._ours(request) and request not in self.earlier:
            self.failed.append(f"{request.failure or 'failed'} at {urlsplit(request.url).path}")
        self.finished(request)

    def answered(self, response: Response) -> None:
        if self._ours(response.request) and response.status >= 500:
            self.failed.append(f"HTTP {response.status} at {urlsplit(response.url).path}")


class Traffic:
    """The site's fetches, per page (watched from the first ``watch``)."""

    def __init__(self, host: str) -> None:
        self._host = host
        self._pages: WeakKeyDictionary[Page, _PageTraffic] = WeakKeyDictionary()

    def watch(self, page: Page) -> None:
        """Start watching ``page`` (once) and forget the failures seen so far: a new page
        is about to be loaded."""
        seen = self._pages.get(page)
        if seen is None:
            seen = self._pages[page] = _PageTraffic(self._host)
            page.on("request", seen.started)
            page.on("requestfinished", seen.finished)
            page.on("requestfailed", seen.broke)
            page.on("response", seen.answered)
        seen.failed.clear()
        seen.earlier |= seen.running
        seen.running.clear()
        seen.last = monotonic()

    async def quiet(self, page: Page, *, timeout_ms: float) -> None:
        """Until no fetch of the site's has run for half a second (at most ``timeout_ms``:
        a page that polls is read as it is then); ``Transient`` when one failed."""
        seen = self._pages.get(page)
        if seen is None:
            self.watch(page)
            seen = self._pages[page]
        deadline = monotonic() + timeout_ms / 1000
        while monotonic() < deadline:
            if not seen.running and monotonic() - seen.last >= _QUIET_SECONDS:
                break
            await asyncio.sleep(0.05)
        if seen.failed:
            failed, seen.failed = seen.failed[0], []
            raise Transient(f"the page's data did not load: {failed}")
