"""Redis-backed primitives: per-key locks, a byte cache, a spend ledger, claim-once keys."""

from __future__ import annotations

import asyncio
import secrets
from datetime import date

import structlog

from core.errors import StorageError
from storage.errors import translate_errors
from storage.liveness import LIVENESS_PREFIX, ProcessIdentity
from storage.redis_client import RedisClient

__all__ = ["ClaimOnce", "KeyLocks", "RedisCache", "RedisSpendLedger"]

log = structlog.get_logger("clubman.storage")

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
# Takes a lock that is free (1) or whose holder is dead (2): its liveness key is gone
# (a key outside KEYS, which a single Redis allows), or the caller proved it dead on this
# machine (ARGV[5] is then the very value it saw). Otherwise returns the value held.
_TAKE_OVER = """
local held = redis.call('GET', KEYS[1])
if not held then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
local holder = string.match(held, '^(.+)/')
local dead = held == ARGV[5]
if not dead and holder and holder ~= ARGV[4] then
  dead = redis.call('EXISTS', ARGV[3] .. holder) == 0
end
if dead then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return held
"""


class KeyLocks:
    """Mutual exclusion per key across processes (e.g. one chat handled at a time).

    A lock's value is ``holder/token``: the holder is this process's identity
    (``storage.liveness``), so a lock held by a dead process is taken over at once,
    and otherwise it expires after ``ttl`` seconds. Taking a free lock is a plain ``SET
    NX PX`` and extending/releasing compare-and-set scripts: one round trip each
    (redis-py's ``Lock`` costs about twice that in CPU, and it runs per message); only
    a lock found held costs a script that asks after its holder.
    """

    def __init__(
        self,
        redis: RedisClient,
        *,
        holder: ProcessIdentity | None = None,
        prefix: str = "clubman:lock:",
        poll_seconds: float = 0.01,
    ) -> None:
        self._redis = redis
        self._holder = holder or ProcessIdentity.current()
        self._prefix = prefix
        self._poll = poll_seconds
        self._release = redis.register_script(_RELEASE)
        self._extend = redis.register_script(_EXTEND)
        self._take_over = redis.register_script(_TAKE_OVER)

    @property
    def holder(self) -> str:
        return str(self._holder)

    async def acquire(self, key: str, *, ttl: float = 60.0, wait: float = 120.0) -> str:
        """Take the lock, waiting up to ``wait`` seconds (a dead holder's lock at once);
        returns the holder's token."""
        name = self._prefix + key
        token = f"{self._holder}/{secrets.token_hex(8)}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            with translate_errors(f"locking {key}"):
                taken = await self._redis.execute_command(
                    "SET", name, token, "NX", "PX", _millis(ttl)
                )
                if not taken:
                    taken = await self._take_over_dead(name, token, ttl)
            if taken:
                return token
            if loop.time() >= deadline:
                raise StorageError(f"timed out waiting for lock {key}")
            await asyncio.sleep(self._poll)

    async def _take_over_dead(self, name: str, token: str, ttl: float) -> bool:
        args: list[str | int] = [token, _millis(ttl), LIVENESS_PREFIX, str(self._holder)]
        held = await self._take_over(keys=[name], args=[*args, ""])
        if not isinstance(held, int):
            value = held.decode() if isinstance(held, bytes) else str(held)
            holder = ProcessIdentity.parse(value.rpartition("/")[0])
            if holder is None or not holder.provably_dead(seen_from=self._holder):
                return False
            held = await self._take_over(keys=[name], args=[*args, value])
        if held == 2:
            log.info("lock.taken_over", key=name, reason="its holder is dead")
        return held in (1, 2)

    async def alive(self, holder: str) -> bool:
        identity = ProcessIdentity.parse(holder)
        if identity is None or identity.provably_dead(seen_from=self._holder):
            return False
        if identity == self._holder:
            return True
        with translate_errors("reading a process's heartbeat"):
            return bool(await self._redis.exists(identity.liveness_key))

    async def extend(self, key: str, token: str, *, ttl: float = 60.0) -> bool:
        """Make a held lock last ``ttl`` seconds from now; False if it is no longer ours."""
        with translate_errors(f"extending lock {key}"):
            return bool(await self._extend(keys=[self._prefix + key], args=[token, _millis(ttl)]))

    async def release(self, key: str, token: str) -> None:
        """Release the lock if still ours; if it lapsed, it may belong to someone else."""
        try:
            with translate_errors(f"unlocking {key}"):
                await self._release(keys=[self._prefix + key], args=[token])
        except StorageError:
            # The work is done; the lock lapses after its ttl.
            log.warning("lock.release_failed", key=key, exc_info=True)


def _millis(seconds: float) -> int:
    return max(1, int(seconds * 1000))


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


# Claims made in one event-loop iteration go as one script call: each update's claim
# (``bot.middlewares.once``) costs a fraction of a command of its own.
_CLAIM_ALL = """
local won = {}
for i, key in ipairs(KEYS) do
  won[i] = redis.call('SET', key, ARGV[1], 'NX', 'EX', ARGV[2]) and 1 or 0
end
return won
"""

_Claim = tuple[str, asyncio.Future[bool]]


class ClaimOnce:
    """First caller to claim a key wins until it expires (one process fires each job, one
    delivery of an update is handled)."""

    def __init__(self, redis: RedisClient, *, prefix: str = "clubman:claim:") -> None:
        self._redis = redis
        self._prefix = prefix
        self._claim_all = redis.register_script(_CLAIM_ALL)
        self._waiting: dict[tuple[str, int], list[_Claim]] = {}
        self._sending: set[asyncio.Task[None]] = set()

    async def claim(self, key: str, *, owner: str, ttl_seconds: int) -> bool:
        loop = asyncio.get_running_loop()
        if not self._waiting:
            loop.call_soon(self._send)
        won: asyncio.Future[bool] = loop.create_future()
        self._waiting.setdefault((owner, ttl_seconds), []).append((self._prefix + key, won))
        return await won

    def _send(self) -> None:
        waiting, self._waiting = self._waiting, {}
        for (owner, ttl), claims in waiting.items():
            task = asyncio.create_task(self._claim(owner, ttl, claims))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _claim(self, owner: str, ttl: int, claims: list[_Claim]) -> None:
        try:
            with translate_errors(f"claiming {len(claims)} keys"):
                won = await self._claim_all(keys=[key for key, _ in claims], args=[owner, ttl])
        except asyncio.CancelledError:
            for _, future in claims:
                future.cancel()
            raise
        except Exception as exc:  # StorageError, or a bug: every caller hears of it
            for _, future in claims:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, future), first in zip(claims, won, strict=True):
            if not future.done():  # its caller may have been cancelled meanwhile
                future.set_result(bool(first))
