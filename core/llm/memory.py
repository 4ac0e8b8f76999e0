"""In-memory ``ResponseCache`` and ``SpendLedger``: for tests and the zero-config demo."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime

from core.llm.ports import Clock

__all__ = ["MemoryResponseCache", "MemorySpendLedger"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class MemoryResponseCache:
    def __init__(self, *, clock: Clock = _utcnow) -> None:
        self._clock = clock
        self._items: dict[str, tuple[bytes, datetime]] = {}

    async def get(self, key: str) -> bytes | None:
        item = self._items.get(key)
        if item is None:
            return None
        value, expires = item
        if self._clock() >= expires:
            del self._items[key]
            return None
        return value

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None:
        expires = self._clock().timestamp() + ttl_seconds
        self._items[key] = (value, datetime.fromtimestamp(expires, UTC))

    def __len__(self) -> int:
        return len(self._items)


class MemorySpendLedger:
    def __init__(self) -> None:
        self._spent: defaultdict[tuple[int | None, date], float] = defaultdict(float)

    async def add(self, *, user_id: int | None, day: date, usd: float) -> None:
        self._spent[(user_id, day)] += usd

    async def spent(self, *, user_id: int | None, day: date) -> float:
        return self._spent[(user_id, day)]
