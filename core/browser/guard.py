"""The network guard: from a brain-chosen action until the adapter next drives the page
itself, the browser context may read the site but change only what the step declared.

Every request but GET, HEAD and OPTIONS is aborted unless its URL (scheme, host and path;
the query is ignored) is one of the declared endpoints — those the adapter declared for
the step, none by default. A label can lie and a handler can POST anywhere; the request is
what changes the site, so the request is what is checked.

WebSockets are watched from before the first page opens (a page opens its socket as it
loads, long before an action is judged: ``watch``): while armed, no message from a page
reaches the server; unarmed, they pass as if nothing were there.

What a page sends as it goes away (``navigator.sendBeacon``, a ``keepalive`` fetch from
a pagehide handler) leaves after the document, where Chromium routes it past every
Playwright hook (tried: the beacon reached the server unseen). So no page of ours sends
one: from ``watch`` on, a script in every document makes ``sendBeacon`` send nothing and
drops ``keepalive``, and notes a change so tried in the page's storage, where ``lift``
finds it and reports it as blocked.

The guard covers every page of the context, popups and new tabs included, and a window
the page opens while armed is itself a change the step did not declare: it is reported
and ended at once (a popup's timers would outlive the page that opened it). Ended, not
just closed: Playwright holds back the requests of a page whose close was asked for
instead of handing them to the guard's route, and a request so held is let go as the
page goes (tried: a popup that posts as it loads sent its first POST in 6 of 10 presses).
So a page is blanked first, its document and timers ended while the guard still answers
its every request, and closed only then (0 of 40).

The guard stays armed after the action returns, because a page can wait before it sends
(a timer, an onload on the page the click led to). ``lift`` — the brain's move before it
remembers a click, and the adapter's first before its own next operation — closes every
page opened since the guard was armed, blanks the page, which ends that document and its
timers (a pagehide beacon is still caught), and only then takes the guard off; it raises
``RequestBlocked`` for anything blocked since the action was judged, so a late attempt
still fails the brain's step.

    guard = NetworkGuard(context)
    await guard.run(action, may_change=declared)   # RequestBlocked if it tried anything
    page = ...; acted = await guard.lift(page)     # before the adapter's own next step

What passes can still have changed the site: a read by its method, a link, that the site
answers by sending the browser elsewhere (a redirect) treated it as an action — «do it,
then show me»: a logout, a dismissal, a delete by link. The guard notes every navigation
by GET, HEAD or OPTIONS to an address not declared that was answered so (the first hop
of its chain; a redirect after a declared change is that change's), and ``lift`` returns
them: what the brain must not keep as a way past a page, to be replayed unseen. A page
that merely moved redirects too; forgetting its click costs one question more, never a
change. A script's read that changes the site without a redirect cannot be told from a
read and is not seen.

The adapter's own press of a step's control is held the same way (``hold``) until the
adapter takes the guard off again (``let_go``, which says what it stopped); the page is
left as the press left it, for the adapter to read. And from ``watch`` on, every change
any page of the context sent is noted (``changes``), guarded or not: what a step sent is
what decides whether what it found may be trusted.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Collection
from urllib.parse import urlsplit

import structlog
from playwright.async_api import BrowserContext, Page, Request, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from core.browser.harm import RequestBlocked

__all__ = ["SAFE_METHODS", "NetworkGuard", "same_endpoint"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# How long a page the guard ends may take to go blank; about:blank loads in milliseconds,
# so only a page that will not leave waits this long before it is closed as it is.
_BLANKING_MS = 5000
log = structlog.get_logger("clubman.browser")


def _endpoint(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/") or "/"


def same_endpoint(url: str, declared: Collection[str]) -> bool:
    """``url`` is one of the declared endpoints (absolute URLs; query and a final / ignored)."""
    return _endpoint(url) in {_endpoint(d) for d in declared}


class NetworkGuard:
    """One context's guard (see the module docstring); a driver keeps one per context."""

    def __init__(self, context: BrowserContext) -> None:
        self._context = context
        self._armed = False
        self._may_change: frozenset[tuple[str, str, str]] = frozenset()
        self._blocked: list[str] = []  # since the last report
        self._watching = False
        self._before: set[Page] = set()  # the pages there were when the guard was armed
        self._closing: set[asyncio.Task[None]] = set()
        self._held = False  # armed by ``hold`` (``let_go`` takes it off), not by ``arm``
        self._changes: list[str] = []  # every change sent since ``watch`` ("POST http://…")
        self._acted: list[str] = []  # reads answered as changes since arming ("GET http://…")

    @property
    def changes(self) -> tuple[str, ...]:
        """Every change («METHOD url») a page of the context sent since ``watch``, blocked
        or not (WebSocket messages and parting sends are reported by ``lift``)."""
        return tuple(self._changes)

    def _saw(self, request: Request) -> None:
        if request.method not in SAFE_METHODS:
            self._changes.append(f"{request.method} {request.url}")
        first = request.redirected_from
        if not self._armed or first is None or first.redirected_from is not None:
            return  # unguarded, not a redirect, or a later hop of one seen already
        declared = _endpoint(first.url) in self._may_change
        if first.method in SAFE_METHODS and first.is_navigation_request() and not declared:
            self._acted.append(f"{first.method} {first.url}")
            log.warning("browser.read_redirected", method=first.method, url=first.url)

    @property
    def armed(self) -> bool:
        return self._armed

    async def _gate(self, route: Route, request: Request) -> None:
        if request.method in SAFE_METHODS or _endpoint(request.url) in self._may_change:
            await route.fallback()
            return
        self._blocked.append(f"{request.method} {request.url}")
        log.warning("browser.request_blocked", method=request.method, url=request.url)
        await route.abort("blockedbyclient")

    async def watch(self) -> None:
        """Route the context's WebSockets through the guard and keep its pages from sending
        anything as they go away; call before a page opens."""
        if not self._watching:
            await self._context.route_web_socket(lambda _url: True, self._socket)
            await self._context.add_init_script(_NO_PARTING_SENDS)
            self._context.on("request", self._saw)
            self._watching = True

    def _socket(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()  # server → page messages flow on untouched

        def from_page(message: str | bytes) -> None:
            if not self._armed:
                server.send(message)
                return
            # A socket has no declared endpoints: a message is a change we cannot vet.
            self._blocked.append(f"WEBSOCKET {ws.url}")
            log.warning("browser.socket_message_blocked", url=ws.url)

        ws.on_message(from_page)

    def _opened(self, page: Page) -> None:
        if not self._armed:
            return
        self._blocked.append(f"WINDOW {page.url}")
        log.warning("browser.window_blocked", url=page.url)
        task = asyncio.create_task(_end(page))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def arm(self, *, may_change: Collection[str] = ()) -> None:
        """Guard from now on, letting changes through to ``may_change`` only."""
        self._may_change = frozenset(_endpoint(d) for d in may_change)
        self._held = False  # a brain's action: off only by ``lift``
        await self.watch()
        if not self._armed:
            for page in self._context.pages:  # what was tried before counts for nothing
                await _parting_sends(page)
            self._before = set(self._context.pages)
            self._acted = []
            self._context.on("page", self._opened)
            await self._context.route("**/*", self._gate)
            self._armed = True

    async def hold(self, *, may_change: Collection[str]) -> None:
        """Guard the adapter's own press from now on, letting changes through to
        ``may_change`` only, until ``let_go``. Armed already (a brain's action, an element
        the LLM picked): left as it is, for ``lift``."""
        if self._armed:
            return
        await self.arm(may_change=may_change)
        self._held = True

    async def let_go(self) -> tuple[str, ...]:
        """Off again after ``hold`` (the page left as it is); what was blocked meanwhile.
        Armed by ``arm``: nothing (``lift`` takes it off and reports)."""
        if not self._held:
            return ()
        if self._closing:
            await asyncio.gather(*self._closing)
        await self._disarm()
        blocked, self._blocked = tuple(self._blocked), []
        return blocked

    async def _disarm(self) -> None:
        """The routes and the window watch off, and what arming set forgotten."""
        with contextlib.suppress(PlaywrightError):  # a closing context sends nothing either
            await self._context.unroute("**/*", self._gate)
        self._context.remove_listener("page", self._opened)
        self._armed = self._held = False
        self._may_change = frozenset()
        self._before = set()

    def _report(self, failure: BaseException | None = None) -> None:
        blocked, self._blocked = tuple(self._blocked), []
        if blocked:
            raise RequestBlocked(
                "the page tried to change something the step may not: " + ", ".join(blocked),
                what=blocked,
            ) from failure

    async def run(
        self, action: Callable[[], Awaitable[None]], *, may_change: Collection[str] = ()
    ) -> None:
        """Arm, run ``action``; ``RequestBlocked`` if it tried anything undeclared (whatever
        else it raised: the block is the news). The guard stays armed (see ``lift``)."""
        await self.arm(may_change=may_change)
        try:
            await action()
        except Exception as exc:
            self._report(exc)
            raise
        self._report()

    async def lift(self, page: Page | None) -> tuple[str, ...]:
        """Before the adapter drives ``page`` itself: blank it (ending whatever document a
        guarded action left there), take the guard off, report what was blocked meanwhile;
        the reads the site answered as changes since arming (see the module docstring)."""
        if not self._armed:
            return ()
        for opened in [p for p in self._context.pages if p not in self._before and p is not page]:
            await _end(opened)
        if self._closing:
            await asyncio.gather(*self._closing)
        if page is not None and (tried := await _parting_sends(page)):
            self._blocked.append(tried)
            log.warning("browser.parting_send_blocked", what=tried)
        if page is not None and not page.is_closed():
            with contextlib.suppress(PlaywrightError):  # a page that cannot load blank is gone
                await page.goto("about:blank")
        acted, self._acted = tuple(self._acted), []
        await self._disarm()
        self._report()
        return acted


# In every document before its own scripts: a beacon or a keepalive change sends nothing,
# and what was tried is noted (``_parting_sends`` reads and clears it).
_NO_PARTING_SENDS = """(() => {
  const note = (what) => {
    try { localStorage.setItem("__clubman_parting_send", what); } catch (e) {}
  };
  Object.defineProperty(Navigator.prototype, "sendBeacon", {
    value: function sendBeacon(url) { note("BEACON " + String(url)); return false; },
    configurable: false, writable: false,
  });
  const plain = window.fetch;
  window.fetch = function fetch(input, init) {
    const asked = input instanceof Request ? input : null;
    if ((init && init.keepalive) || (asked && asked.keepalive)) {
      const method = ((init && init.method) || (asked && asked.method) || "GET").toUpperCase();
      const url = String(asked ? asked.url : input);
      if (method !== "GET" && method !== "HEAD") note(method + " " + url);
      if (asked) input = new Request(asked, {keepalive: false});
      init = Object.assign({}, init, {keepalive: false});
    }
    return plain.call(this, input, init);
  };
})();"""
# Reads the note and clears it.
_READ_PARTING_SENDS = """() => {
  const found = localStorage.getItem("__clubman_parting_send");
  localStorage.removeItem("__clubman_parting_send");
  return found;
}"""


async def _parting_sends(page: Page) -> str | None:
    """What a page of this origin tried to send as a document went away, cleared."""
    if page.is_closed():
        return None
    try:
        found = await page.evaluate(_READ_PARTING_SENDS)
    except PlaywrightError:  # no storage here (about:blank), or the page is going
        return None
    return str(found) if found else None


async def _end(page: Page) -> None:
    """Blank ``page``, then close it (see the module docstring: a page closed with its
    document still alive lets go of the requests the guard has not yet answered)."""
    with contextlib.suppress(PlaywrightError):  # closed already, or it will not go blank
        await page.goto("about:blank", timeout=_BLANKING_MS)
    with contextlib.suppress(PlaywrightError):  # closed already, or its context is
        await page.close()
