"""Redis primitives contract suite: runs against a real redis-server and fakeredis."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from core.errors import StorageError, StorageUnavailable
from storage.kv import ClaimOnce, KeyLocks, RedisCache, RedisSpendLedger
from storage.redis_client import RedisClient


async def test_lock_serialises_holders_of_one_key(redis: RedisClient) -> None:
    locks = KeyLocks(redis)
    order: list[str] = []

    async def worker(name: str) -> None:
        token = await locks.acquire("chat:1", ttl=5, wait=5)
        order.append(f"{name}+")
        await asyncio.sleep(0.05)
        order.append(f"{name}-")
        await locks.release("chat:1", token)

    await asyncio.gather(worker("a"), worker("b"), worker("c"))
    # Each holder enters and leaves before the next enters.
    assert all(order[i][0] == order[i + 1][0] for i in range(0, len(order), 2))
    assert len(order) == 6


async def test_lock_times_out_with_storage_error(redis: RedisClient) -> None:
    locks = KeyLocks(redis)
    await locks.acquire("chat:2", ttl=5)
    with pytest.raises(StorageError, match="timed out"):
        await locks.acquire("chat:2", ttl=5, wait=0.1)


async def test_cache_round_trip_and_ttl(redis: RedisClient) -> None:
    cache = RedisCache(redis)
    assert await cache.get("k") is None
    await cache.set("k", b"\x00value", ttl_seconds=60)
    assert await cache.get("k") == b"\x00value"
    assert 0 < await redis.ttl("clubman:cache:k") <= 60


async def test_ledger_sums_per_user_and_total(redis: RedisClient) -> None:
    ledger = RedisSpendLedger(redis)
    day = date(2026, 11, 22)
    await ledger.add(user_id=1, day=day, usd=0.25)
    await ledger.add(user_id=1, day=day, usd=0.5)
    await ledger.add(user_id=2, day=day, usd=1.0)
    assert await ledger.spent(user_id=1, day=day) == pytest.approx(0.75)
    assert await ledger.spent(user_id=None, day=day) == pytest.approx(1.75)
    assert await ledger.spent(user_id=1, day=date(2026, 11, 23)) == 0.0


async def test_claim_once_has_one_winner(redis: RedisClient) -> None:
    claims = ClaimOnce(redis)
    results = await asyncio.gather(
        *(claims.claim("job:1", owner=f"p{n}", ttl_seconds=30) for n in range(5))
    )
    assert results.count(True) == 1


async def test_claims_made_together_each_get_their_own_answer_in_one_call(
    redis: RedisClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    claims = ClaimOnce(redis)
    await claims.claim("update:7", owner="bot", ttl_seconds=60)  # delivered before
    calls: list[int] = []
    script = claims._claim_all

    async def counted(*, keys: list[str], args: list[str | int]) -> list[int]:
        calls.append(len(keys))
        return await script(keys=keys, args=args)

    monkeypatch.setattr(claims, "_claim_all", counted)
    won = await asyncio.gather(
        *(claims.claim(f"update:{n}", owner="bot", ttl_seconds=60) for n in range(5, 10)),
        claims.claim("update:5", owner="bot", ttl_seconds=60),  # the same update twice
        claims.claim("job:1", owner="scheduler", ttl_seconds=30),
    )
    assert won == [True, True, False, True, True, False, True]
    assert sorted(calls) == [1, 6]  # one call per owner and retention, not per key
    assert 0 < await redis.ttl("clubman:claim:job:1") <= 30
    assert 30 < await redis.ttl("clubman:claim:update:9") <= 60


async def test_a_claim_that_storage_cannot_answer_fails_every_caller(
    redis: RedisClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    claims = ClaimOnce(redis)

    async def down(*, keys: list[str], args: list[str | int]) -> list[int]:
        raise StorageUnavailable("redis is down")

    monkeypatch.setattr(claims, "_claim_all", down)
    results = await asyncio.gather(
        *(claims.claim(f"update:{n}", owner="bot", ttl_seconds=60) for n in range(3)),
        return_exceptions=True,
    )
    assert all(isinstance(r, StorageUnavailable) for r in results)


async def test_an_expired_lock_taken_by_another_is_not_released_by_the_first(
    redis: RedisClient,
) -> None:
    locks = KeyLocks(redis)
    token = await locks.acquire("chat:3", ttl=0.05)
    await asyncio.sleep(0.1)  # our lease lapsed and someone else took the lock
    await redis.set("clubman:lock:chat:3", "theirs")
    await locks.release("chat:3", token)
    assert await redis.get("clubman:lock:chat:3") in (b"theirs", "theirs")
