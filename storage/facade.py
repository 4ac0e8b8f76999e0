"""``open_storage``: the one async context manager that opens MongoDB and Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from storage.access import AccessTokenRepository, ConfirmationRepository
from storage.active_runs import ActiveRunIndex
from storage.batching import BatchWriter
from storage.brain_memory import BrainMemoryRepository
from storage.documents import ConversationMessageDocument, EventDocument
from storage.kv import ClaimOnce, KeyLocks, RedisCache, RedisSpendLedger
from storage.liveness import Heartbeat, ProcessIdentity
from storage.local_mongo import MEMORY, local_mongo
from storage.mongo import open_mongo
from storage.records import ConversationRepository, EventRepository
from storage.redis_client import RedisClient, open_redis
from storage.reminders import ReminderRepository
from storage.runs import RunRepository
from storage.schedules import ScheduleRepository
from storage.users import PreferenceRepository, UserRepository

__all__ = ["Storage", "open_storage"]


@dataclass(frozen=True, slots=True)
class Storage:
    """``core.store.Store``, and what the app wires besides (caches, memory, Redis)."""

    runs: RunRepository
    events: EventRepository
    conversations: ConversationRepository
    users: UserRepository
    preferences: PreferenceRepository
    schedules: ScheduleRepository
    brain_memory: BrainMemoryRepository
    locks: KeyLocks
    cache: RedisCache
    ledger: RedisSpendLedger
    claims: ClaimOnce
    redis: RedisClient
    mongodb_uri: str
    access_tokens: AccessTokenRepository
    confirmations: ConfirmationRepository
    reminders: ReminderRepository


@asynccontextmanager
async def open_storage(
    *,
    mongodb_uri: str | None,
    redis_url: str | None,
    data_dir: Path,
    in_memory: bool = False,
    db_name: str | None = None,
) -> AsyncIterator[Storage]:
    """Connect to MongoDB (or start SecantusDB under ``data_dir``) and Redis (or fakeredis)."""
    async with AsyncExitStack() as stack:
        if mongodb_uri is None:
            path: Path | str = MEMORY if in_memory else data_dir / "secantus"
            data_dir.mkdir(parents=True, exist_ok=True)
            mongodb_uri = await stack.enter_async_context(
                local_mongo(path, log_path=data_dir / "secantus.log")
            )
        await stack.enter_async_context(open_mongo(mongodb_uri, db_name=db_name))
        redis = await stack.enter_async_context(open_redis(redis_url))
        # Locks name this process; its heartbeat tells others it lives (storage.liveness).
        identity = ProcessIdentity.current()
        await stack.enter_async_context(Heartbeat(redis, identity))
        # Redis keys derived from MongoDB data carry the database name: one Redis may
        # serve several databases (tests do).
        scope = f"clubman:{EventDocument.get_pymongo_collection().database.name}:"
        # Entered after Mongo, so they flush before it closes. They take turns: on
        # SecantusDB (a threaded Python server) two concurrent insert streams cost about
        # twice the CPU per document of one (0.12 → 0.22 ms measured); nobody waits on
        # these writes, so on MongoDB taking turns costs nothing.
        turn = asyncio.Lock()
        events = await stack.enter_async_context(BatchWriter(EventDocument, write_turn=turn))
        messages = await stack.enter_async_context(
            BatchWriter(ConversationMessageDocument, write_turn=turn)
        )
        runs = RunRepository(ActiveRunIndex(redis, prefix=scope + "active:"))
        await runs.rebuild_index()
        yield Storage(
            runs=runs,
            events=EventRepository(events),
            conversations=ConversationRepository(messages),
            users=UserRepository(redis, prefix=scope + "user:"),
            preferences=PreferenceRepository(),
            schedules=ScheduleRepository(),
            brain_memory=BrainMemoryRepository(),
            locks=KeyLocks(redis, holder=identity),
            cache=RedisCache(redis),
            ledger=RedisSpendLedger(redis),
            claims=ClaimOnce(redis),
            redis=redis,
            mongodb_uri=mongodb_uri,
            access_tokens=AccessTokenRepository(),
            confirmations=ConfirmationRepository(),
            reminders=ReminderRepository(),
        )
