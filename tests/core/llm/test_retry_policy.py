"""Backoff arithmetic and ``retry-after`` parsing."""

from __future__ import annotations

import email.utils
import time

import pytest

from core.llm import RetryPolicy
from core.llm.retry import parse_retry_after


def test_exponential_backoff_is_capped() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0)
    assert [policy.delay(n, None) for n in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_retry_after_wins_but_is_capped() -> None:
    policy = RetryPolicy(retry_after_cap=10.0)
    assert policy.delay(1, 4.0) == 4.0
    assert policy.delay(1, 600.0) == 10.0
    assert policy.delay(1, -5.0) == 0.0


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str] | None, expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date() -> None:
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    seconds = parse_retry_after({"retry-after": when})
    assert seconds is not None and 25 <= seconds <= 31
