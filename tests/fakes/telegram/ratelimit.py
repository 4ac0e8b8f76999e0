"""Telegram-like flood control: a token bucket per chat plus one global bucket."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tests.fakes.telegram.clock import Clock
from tests.fakes.telegram.errors import ApiError

__all__ = ["LIMITED_METHODS", "RateLimiter", "RateLimits", "too_many_requests"]

# Methods that put content into a chat; lower-case, as method names are case-insensitive.
LIMITED_METHODS = frozenset(
    {"sendmessage", "sendphoto", "senddocument", "editmessagetext", "editmessagereplymarkup"}
)


@dataclass(frozen=True, kw_only=True)
class RateLimits:
    """Bucket sizes and refill rates (tokens per second)."""

    per_chat_burst: int = 3
    per_chat_rate: float = 1.0
    global_burst: int = 30
    global_rate: float = 30.0


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after)


@dataclass
class _Bucket:
    capacity: float
    rate: float
    tokens: float
    updated: float

    def refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated)
        self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
        self.updated = now

    def wait_time(self) -> float:
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


@dataclass
class RateLimiter:
    limits: RateLimits
    clock: Clock
    _chats: dict[int | str, _Bucket] = field(default_factory=dict)
    _global: _Bucket | None = None

    def _bucket(self, burst: int, rate: float, now: float) -> _Bucket:
        return _Bucket(capacity=burst, rate=rate, tokens=burst, updated=now)

    def acquire(self, chat_id: int | str) -> None:
        """Take one token from the chat's and the global bucket, or raise 429."""
        now = self.clock.now()
        lim = self.limits
        chat = self._chats.setdefault(
            chat_id, self._bucket(lim.per_chat_burst, lim.per_chat_rate, now)
        )
        if self._global is None:
            self._global = self._bucket(lim.global_burst, lim.global_rate, now)
        chat.refill(now)
        self._global.refill(now)
        wait = max(chat.wait_time(), self._global.wait_time())
        if wait > 0:
            raise too_many_requests(max(1, math.ceil(wait)))
        chat.tokens -= 1
        self._global.tokens -= 1
