"""Retries for transient site failures and the translation of Playwright errors, for the
adapters that drive a booking site's pages.

Page objects raise two internal signals: ``Transient`` (5xx page, timeout, network
error: safe to try again) and ``Bounced`` (the portal sent us to the login page).
``with_retries`` retries ``Transient`` with exponential backoff (tenacity) and turns
the last one into ``PortalUnavailable``; ``Bounced`` passes through to the session,
which logs in again once.

``RetryPolicy`` and ``retried`` (the backoff loop itself) assume no browser: an adapter
that talks HTTP (Indico's JSON calls) retries its own transient error with them and
translates what is left at its own boundary.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import structlog
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from core.errors import BrowserError
from core.site import OnRetry, PortalRetry, PortalUnavailable, SessionExpired

__all__ = [
    "Bounced",
    "RetryPolicy",
    "Transient",
    "retried",
    "translate",
    "with_relogin",
    "with_retries",
]

T = TypeVar("T")
log = structlog.get_logger("clubman.portal")

_NETWORK_MARKERS = ("net::ERR_", "NS_ERROR_", "interrupted by another navigation")


class Transient(Exception):
    """Internal to an adapter: a failure worth retrying (never reaches its callers)."""


class Bounced(Exception):
    """Internal to an adapter: the site redirected to its login page."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``attempts`` tries in all; waits ``base_delay * 2**(n-1)`` capped at ``max_delay``."""

    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 4.0

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (1-based)."""
        return min(self.max_delay, self.base_delay * 2 ** (attempt - 1))


async def translate(action: Callable[[], Awaitable[T]]) -> T:
    """Run ``action``; Playwright timeouts/network errors → ``Transient``, others → BrowserError."""
    try:
        return await action()
    except PlaywrightTimeoutError as exc:
        raise Transient(f"timeout: {_first_line(exc)}") from exc
    except PlaywrightError as exc:
        if any(marker in str(exc) for marker in _NETWORK_MARKERS):
            raise Transient(f"network: {_first_line(exc)}") from exc
        raise BrowserError("the browser failed while driving the portal") from exc


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


async def retried(
    policy: RetryPolicy,
    action: Callable[[], Awaitable[T]],
    *,
    what: str,
    on_retry: OnRetry | None = None,
    when: type[Exception] | tuple[type[Exception], ...] = Transient,
) -> T:
    """``action`` again while it raises ``when``, until ``policy`` runs out; the last
    failure is raised as it is. ``on_retry`` hears of each retry (the run's timeline,
    the metrics)."""

    async def before_sleep(state: RetryCallState) -> None:
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        log.warning("portal.retry", action=what, attempt=state.attempt_number, reason=str(error))
        if on_retry is not None:
            await on_retry(
                PortalRetry(action=what, attempt=state.attempt_number, reason=str(error))
            )

    retrying = AsyncRetrying(
        stop=stop_after_attempt(max(1, policy.attempts)),
        wait=wait_exponential(multiplier=policy.base_delay, max=policy.max_delay),
        retry=retry_if_exception_type(when),
        before_sleep=before_sleep,
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await action()
    raise AssertionError("unreachable: tenacity either returns or raises")


async def with_retries(
    policy: RetryPolicy,
    action: Callable[[], Awaitable[T]],
    *,
    what: str,
    on_retry: OnRetry | None = None,
) -> T:
    """``action`` with Playwright's errors translated and retries on ``Transient``;
    ``PortalUnavailable`` when they run out."""
    try:
        return await retried(policy, lambda: translate(action), what=what, on_retry=on_retry)
    except Transient as exc:
        raise PortalUnavailable(
            f"Портал бронирования не отвечает ({what}): {exc}",
            hint="попробуйте позже",
        ) from exc


async def with_relogin(
    policy: RetryPolicy,
    action: Callable[[], Awaitable[T]],
    *,
    login: Callable[[], Awaitable[None]],
    what: str,
    on_retry: OnRetry | None = None,
) -> T:
    """``action`` with retries; when the site sends us to its login page (``Bounced``),
    ``login`` once and ``action`` again; a second bounce is ``SessionExpired``."""
    relogged = False
    while True:
        try:
            return await with_retries(policy, action, what=what, on_retry=on_retry)
        except Bounced:
            if relogged:
                raise SessionExpired(
                    f"Сеанс на сайте истёк снова ({what})", hint="попробуйте ещё раз"
                ) from None
            relogged = True
            log.info("portal.login_needed", action=what)
            await with_retries(policy, login, what="вход", on_retry=on_retry)
