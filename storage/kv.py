"""Redis-backed primitives: per-key locks, a byte cache, a spend ledger, claim-once keys."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date

import redis.exceptions
from redis.asyncio.lock import Lock

from core.errors import StorageError
from storage.errors import translate_errors
from storage.redis_client import RedisClient

__all__ = ["ClaimOnce", "KeyLocks", "RedisCache", "RedisSpendLedger"]


class KeyLocks:
    """Mutual exclusion per key across processes (e.g. one chat handled at a time).

    The lock expires after ``ttl`` seconds so a crashed holder cannot block a chat
    forever; a holder working longer extends it.
    """

    def __init__(self, redis: RedisClient, *, prefix: str = "clubman:lock:") -> None:
        self._redis = redis
        self._prefix = prefix

    @asynccontextmanager
    async def hold(
        self, key: str, *, ttl: float = 60.0, wait: float = 120.0
    ) -> AsyncIterator[Lock]:
        lock = self._redis.lock(self._prefix + key, timeout=ttl, blocking_timeout=wait, sleep=0.01)
        with translate_errors(f"locking {key}"):
            acquired = await lock.acquire()
        if not acquired:
            raise StorageError(f"timed out waiting for lock {key}")
        try:
            yield lock
        finally:
            # It may have expired while held and belong to someone else now: leave it be.
            with contextlib.suppress(redis.exceptions.LockError):
                await lock.release()


class RedisCache:
    """``get``/``set`` of bytes with a TTL (the LLM response cache)."""

    def __init__(self, redis: RedisClient, *, prefix: str = "clubman:cache:") -> None:
        self._redis = redis
        self._prefix = prefix

    async def get(self, key: str) -> bytes | None:
        with translate_errors("reading the cache"):
            value = await self._redis.get(self._prefix + key)
        if value is None:
            return None
        return value if isinstance(value, bytes) else str(value).encode()

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None:
        with translate_errors("writing the cache"):
            await self._redis.set(self._prefix + key, value, ex=ttl_seconds)


class RedisSpendLedger:
    """Money spent on LLM calls per user and in total, per day; keys expire after two days."""

    def __init__(self, redis: RedisClient, *, prefix: str = "clubman:spend:") -> None:
        self._redis = redis
        self._prefix = prefix

    def _key(self, user_id: int | None, day: date) -> str:
        return f"{self._prefix}{day.isoformat()}:{'total' if user_id is None else user_id}"

    async def add(self, *, user_id: int | None, day: date, usd: float) -> None:
        keys = [self._key(None, day)] + ([self._key(user_id, day)] if user_id is not None else [])
        with translate_errors("recording LLM spend"):
            async with self._redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    pipe.incrbyfloat(key, usd)
                    pipe.expire(key, 2 * 86400)
                await pipe.execute()

    async def spent(self, *, user_id: int | None, day: date) -> float:
        with translate_errors("reading LLM spend"):
            value = await self._redis.get(self._key(user_id, day))
        return float(value) if value is not None else 0.0


class ClaimOnce:
    """First caller to claim a key wins until it expires (one process fires each job)."""

    def __init__(self, redis: RedisClient, *, prefix: str = "clubman:claim:") -> None:
        self._redis = redis
        self._prefix = prefix

    async def claim(self, key: str, *, owner: str, ttl_seconds: int) -> bool:
        with translate_errors(f"claiming {key}"):
            return bool(await self._redis.set(self._prefix + key, owner, nx=True, ex=ttl_seconds))
