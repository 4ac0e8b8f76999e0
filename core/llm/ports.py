"""What the LLM layer needs from the outside; storage/ implements these on Redis."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import Protocol

from core.llm.models import LLMCallRecord

__all__ = ["Clock", "OnCall", "ResponseCache", "Sleep", "SpendLedger"]


class ResponseCache(Protocol):
    """Bytes by key with a time to live."""

    async def get(self, key: str) -> bytes | None: ...

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None: ...


class SpendLedger(Protocol):
    """Dollars spent per day, per user and in total (``user_id=None``)."""

    async def add(self, *, user_id: int | None, day: date, usd: float) -> None: ...

    async def spent(self, *, user_id: int | None, day: date) -> float: ...


OnCall = Callable[[LLMCallRecord], Awaitable[None]]
Clock = Callable[[], datetime]
Sleep = Callable[[float], Awaitable[None]]
