"""The network guard: while a brain-chosen action runs, the browser context may read
the site but change only what the step declared.

Every request but GET, HEAD and OPTIONS is aborted unless its URL (scheme, host and path;
the query is ignored) is one of ``may_change`` — the endpoints the adapter declared for the
step, none by default. A label can lie and a handler can POST anywhere; the request is
what changes the site, so the request is what is checked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Collection
from urllib.parse import urlsplit

import structlog
from playwright.async_api import BrowserContext, Request, Route
from playwright.async_api import Error as PlaywrightError

from core.browser.harm import RequestBlocked

__all__ = ["SAFE_METHODS", "guarded", "same_endpoint"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
log = structlog.get_logger("clubman.browser")


def _endpoint(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/") or "/"


def same_endpoint(url: str, declared: Collection[str]) -> bool:
    """``url`` is one of the declared endpoints (absolute URLs; query and a final / ignored)."""
    return _endpoint(url) in {_endpoint(d) for d in declared}


async def guarded(
    context: BrowserContext,
    action: Callable[[], Awaitable[None]],
    *,
    may_change: Collection[str] = (),
) -> None:
    """Run ``action`` with the guard on ``context``; raise ``RequestBlocked`` if it tried
    anything undeclared (whatever else the action raised: the block is the news)."""
    blocked: list[str] = []

    async def gate(route: Route, request: Request) -> None:
        if request.method in SAFE_METHODS or same_endpoint(request.url, may_change):
            await route.fallback()
            return
        blocked.append(f"{request.method} {request.url}")
        log.warning("browser.request_blocked", method=request.method, url=request.url)
        await route.abort("blockedbyclient")

    await context.route("**/*", gate)
    failure: BaseException | None = None
    try:
        await action()
    except Exception as exc:  # noqa: BLE001 - re-raised below unless a block explains it
        failure = exc
    finally:
        # A context that is closing cannot send anything more either.
        with contextlib.suppress(PlaywrightError):
            await context.unroute("**/*", gate)
    if blocked:
        raise RequestBlocked(
            "the page tried to change something the step may not: " + ", ".join(blocked),
            what=tuple(blocked),
        ) from failure
    if failure is not None:
        raise failure
