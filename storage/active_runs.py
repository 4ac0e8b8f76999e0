"""Which chats have active runs, kept in Redis so a message in a quiet chat (most of
them) needs no MongoDB query to learn that nothing waits for an answer.

The index is a superset of the truth: an id is added before a run is stored active and
removed only after it is stored finished, so a crash in between leaves an extra id
(cleaned on the next read), never a missing one. A marker key says the index is
complete; if Redis lost it (flushed, restarted without persistence) readers fall back
to MongoDB and the index is rebuilt from there.

A chat can be *pinned* while this process holds its lease (core.turns): runs are only
created in a chat's turn, so no other process adds to a pinned chat's set, and this
process keeps a copy of it, read once and then changed with every add and remove here.
Removals elsewhere may leave an extra id in the copy, which the reader drops as usual.
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.errors import translate_errors
from storage.pins import Pins
from storage.redis_client import RedisClient

__all__ = ["ActiveRunIndex"]

# One round trip: nil when the index is not complete, else the chat's run ids.
_MEMBERS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('SMEMBERS', KEYS[2])
"""


class ActiveRunIndex:
    def __init__(self, redis: RedisClient, *, prefix: str) -> None:
        self._redis = redis
        self._prefix = prefix
        self._built = f"{prefix}built"
        self._members = redis.register_script(_MEMBERS)
        self._pins: Pins[int, frozenset[str]] = Pins()

    def _key(self, chat_id: int) -> str:
        return f"{self._prefix}{chat_id}"

    def pin(self, chat_id: int) -> None:
        """Keep the chat's set in memory: only this process adds to it until ``unpin``."""
        self._pins.pin(chat_id)

    def unpin(self, chat_id: int) -> None:
        self._pins.unpin(chat_id)

    async def add(self, chat_id: int, short_id: str) -> None:
        with translate_errors(f"indexing run {short_id}"):
            await self._redis.sadd(self._key(chat_id), short_id)
        self._pins.wrote(chat_id, lambda ids: ids | {short_id})

    async def remove(self, chat_id: int, *short_ids: str) -> None:
        if not short_ids:
            return
        with translate_errors(f"unindexing runs of chat {chat_id}"):
            await self._redis.srem(self._key(chat_id), *short_ids)
        # A read in flight that still has them is harmless: readers drop finished runs.
        self._pins.change(chat_id, lambda ids: ids - set(short_ids))

    async def members(self, chat_id: int) -> set[str] | None:
        """The chat's indexed run ids; ``None`` when the index is not complete."""
        kept = self._pins.get(chat_id)
        if kept is not None:
            return set(kept)
        token = self._pins.token(chat_id)
        with translate_errors(f"reading the run index of chat {chat_id}"):
            members = await self._members(keys=[self._built, self._key(chat_id)])
        if members is None:
            return None
        found = {m.decode() if isinstance(m, bytes) else str(m) for m in members}
        self._pins.keep(chat_id, token, frozenset(found))
        return found

    async def rebuild(self, active: Iterable[tuple[int, str]]) -> None:
        """Add every active run (chat id, short id) and mark the index complete."""
        with translate_errors("rebuilding the run index"):
            async with self._redis.pipeline(transaction=False) as pipe:
                for chat_id, short_id in active:
                    pipe.sadd(self._key(chat_id), short_id)
                pipe.set(self._built, 1)
                await pipe.execute()
        self._pins.forget_values()  # read afresh: the rebuild may add ids
