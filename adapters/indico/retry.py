"""Retries of transient Indico failures (5xx, timeouts, refused connections) with backoff.

Only calls that are safe to repeat go through ``with_retries``; a create is not (Indico's
create is not idempotent), so the session resends one only after looking in my bookings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import structlog
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from adapters.indico.errors import SystemUnavailable
from core.site.retry import OnRetry, PortalRetry

__all__ = ["RetryPolicy", "with_retries"]

T = TypeVar("T")
log = structlog.get_logger("clubman.indico")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``attempts`` tries in all; waits ``base_delay * 2**(n-1)`` capped at ``max_delay``."""

    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 4.0

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (1-based)."""
        return min(self.max_delay, self.base_delay * 2 ** (attempt - 1))


async def with_retries(
    policy: RetryPolicy,
    action: Callable[[], Awaitable[T]],
    *,
    what: str,
    on_retry: OnRetry | None = None,
) -> T:
    """``action`` again on ``SystemUnavailable`` until the policy runs out; the last one
    is raised as it is (the session maps it to ``PortalUnavailable``). ``on_retry``
    hears of each retry."""

    async def before_sleep(state: RetryCallState) -> None:
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        log.warning("indico.retry", action=what, attempt=state.attempt_number, reason=str(error))
        if on_retry is not None:
            await on_retry(
                PortalRetry(action=what, attempt=state.attempt_number, reason=str(error))
            )

    retrying = AsyncRetrying(
        stop=stop_after_attempt(max(1, policy.attempts)),
        wait=wait_exponential(multiplier=policy.base_delay, max=policy.max_delay),
        retry=retry_if_exception_type(SystemUnavailable),
        before_sleep=before_sleep,
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await action()
    raise AssertionError("unreachable: tenacity either returns or raises")
