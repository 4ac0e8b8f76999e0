"""The one backoff loop (``retried``) every site adapter retries with: the failure it is
told to retry, as often as the policy allows, each retry told; anything else at once."""

from __future__ import annotations

import pytest

from core.browser.retry import RetryPolicy, Transient, retried, with_retries
from core.site import PortalRetry, PortalUnavailable

FAST = RetryPolicy(attempts=3, base_delay=0.001, max_delay=0.002)


class _Down(Exception):
    """An adapter's own transient failure (Indico's ``SystemUnavailable``)."""


async def test_an_adapters_own_failure_is_retried_and_the_last_raised_as_it_is() -> None:
    calls: list[int] = []
    told: list[PortalRetry] = []

    async def down() -> None:
        calls.append(1)
        raise _Down(f"HTTP 503 #{len(calls)}")

    async def hear(retry: PortalRetry) -> None:
        told.append(retry)

    with pytest.raises(_Down, match="#3"):
        await retried(FAST, down, what="мои брони", on_retry=hear, when=_Down)
    assert len(calls) == 3
    assert [(r.action, r.attempt, r.reason) for r in told] == [
        ("мои брони", 1, "HTTP 503 #1"),
        ("мои брони", 2, "HTTP 503 #2"),
    ]


async def test_a_failure_not_named_is_not_retried() -> None:
    calls: list[int] = []

    async def refused() -> None:
        calls.append(1)
        raise ValueError("no")

    with pytest.raises(ValueError):
        await retried(FAST, refused, what="бронирование", when=_Down)
    assert calls == [1]


async def test_a_success_after_a_failure_is_the_answer() -> None:
    calls: list[int] = []

    async def flaky() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise Transient("timeout")
        return "ok"

    assert await retried(FAST, flaky, what="вход") == "ok"


async def test_pages_transient_failures_end_as_portal_unavailable() -> None:
    async def timeout() -> None:
        raise Transient("timeout: 30000 ms")

    with pytest.raises(PortalUnavailable, match="не отвечает \\(вход\\): timeout"):
        await with_retries(FAST, timeout, what="вход")
