"""What a page's scripts are fetching from the site. For pages they draw, «settled» is
when what the page shows is its answer: nothing of the site's in flight (its data, and
the scripts that fetch it), and nothing new asked for while the page drew what came. A
fetch that failed means what it shows is not the answer (an empty list after a failed
fetch looks just like an empty list)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from time import monotonic
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Request, Response

from core.browser.retry import Transient

__all__ = ["Traffic"]

# After the site's last answer: a moment for the page to act on it and two frames drawn
# (a script fetches what an answer leads to once it has drawn it; frames come slower on a
# busy machine, so the wait grows with the load), both in one evaluate, the frames drawn
# within the moment when they come fast. Then, while the context routes requests (the
# network guard armed), a moment for the news of a request the page made meanwhile to
# reach us. Unrouted, Chromium tells of a page's request on the session the evaluate
# answers on, before that answer: heard by then (tried on a loaded machine: never later
# in 2,500 evaluates; routed, 300 of 500 later, by up to 25 ms).
_AFTER_ANSWER_SECONDS = 0.05
_DRAWN = """(moment) => new Promise((done) => {
  const until = performance.now() + moment;
  const end = () => setTimeout(done, Math.max(0, until - performance.now()));
  setTimeout(end, 1000);  // a page the browser does not draw: its timer still runs
  requestAnimationFrame(() => requestAnimationFrame(end));
})"""
_NEWS_SECONDS = 0.03
_FETCHES = ("xhr", "fetch")


class _PageTraffic:
    def __init__(self, host: str) -> None:
        self.host = host
        self.running: set[Request] = set()
        self.idle = asyncio.Event()  # set while nothing of the site's is in flight
        self.idle.set()
        self.asked = 0  # requests of the site's started, ever
        self.last = monotonic()
        self.failed: list[str] = []
        # The requests of the page before the last load: going away cancels them, which
        # says nothing of the page loaded now.
        self.earlier: set[Request] = set()

    def _site(self, request: Request) -> bool:
        return urlsplit(request.url).netloc == self.host

    def _fetch(self, request: Request) -> bool:
        return request.resource_type in _FETCHES and self._site(request)

    def started(self, request: Request) -> None:
        # Any request of the site's: a script still loading has not fetched its data yet.
        if self._site(request):
            self.running.add(request)
            self.idle.clear()
            self.asked += 1
            self.last = monotonic()

    def finished(self, request: Request) -> None:
        self.earlier.discard(request)
        if request in self.running:
            self.running.discard(request)
            self.last = monotonic()
            if not self.running:
                self.idle.set()

    def forget_running(self) -> None:
        """A new page is about to be loaded: what is in flight is the last page's."""
        self.earlier |= self.running
        self.running.clear()
        self.idle.set()

    def broke(self, request: Request) -> None:
        # Aborted is the page's own doing (a script gave up a fetch ahead, a load replaced
        # it), never the site failing to answer: only the other failures count.
        given_up = (request.failure or "").endswith("ERR_ABORTED")
        if self._fetch(request) and request not in self.earlier and not given_up:
            self.failed.append(f"{request.failure or 'failed'} at {urlsplit(request.url).path}")
        self.finished(request)

    def answered(self, response: Response) -> None:
        if self._fetch(response.request) and response.status >= 500:
            self.failed.append(f"HTTP {response.status} at {urlsplit(response.url).path}")


class Traffic:
    """The site's requests, per page (watched from the first ``watch``)."""

    def __init__(self, host: str, *, routed: Callable[[], bool] = lambda: True) -> None:
        self._host = host
        self._routed = routed  # whether the context routes requests now (unknown: yes)
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
        seen.forget_running()
        seen.last = monotonic()

    async def quiet(self, page: Page, *, timeout_ms: float) -> None:
        """Until the page is settled (at most ``timeout_ms``: a page that polls is read as
        it is then); ``Transient`` when a fetch of its data failed."""
        seen = self._pages.get(page)
        if seen is None:
            self.watch(page)
            seen = self._pages[page]
        deadline = monotonic() + timeout_ms / 1000
        while monotonic() < deadline:
            if seen.running:  # fetching: until it ends (or the deadline)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(seen.idle.wait(), deadline - monotonic())
                continue
            asked = seen.asked
            moment = max(0.0, _AFTER_ANSWER_SECONDS - (monotonic() - seen.last))
            drawn = await _drawn(page, moment=moment, news=self._routed())
            if drawn and not seen.running and seen.asked == asked:
                break
        if seen.failed:
            failed, seen.failed = seen.failed[0], []
            raise Transient(f"the page's data did not load: {failed}")


async def _drawn(page: Page, *, moment: float, news: bool) -> bool:
    """Whether the page drew two frames and ``moment`` seconds went by (and we heard of
    what it asked for meanwhile, after a moment for its ``news``); False when it went to
    another page instead."""
    try:
        await page.evaluate(_DRAWN, moment * 1000)
    except PlaywrightError:
        if page.is_closed():
            raise
        return False  # it went to another page: not settled
    if news:
        await asyncio.sleep(_NEWS_SECONDS)
    return True
