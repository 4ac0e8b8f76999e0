"""Chat turns: one at a time per chat, across processes, with the Redis lock kept as a lease."""

from __future__ import annotations

import asyncio
import dataclasses

from core.store import ScenarioRun
from core.turns import ChatTurns
from storage import EventDocument, Storage
from storage.active_runs import ActiveRunIndex
from storage.runs import RunRepository
from storage.users import UserRepository

LOCK = "clubman:lock:chat:1"


async def _holder(storage: Storage) -> bytes | str | None:
    return await storage.redis.get(LOCK)


async def _until_released(storage: Storage) -> None:
    async with asyncio.timeout(10):
        while await _holder(storage) is not None:
            await asyncio.sleep(0.01)


async def test_a_conversation_takes_the_lock_once_and_lets_it_go_when_quiet(
    storage: Storage,
) -> None:
    sessions = ChatTurns(storage, linger=0.2)
    holders = []
    for _ in range(3):
        async with sessions.turn(1):
            holders.append(await _holder(storage))
    assert holders[0] is not None
    assert holders == [holders[0]] * 3  # one lease for the whole back-and-forth
    await _until_released(storage)
    async with sessions.turn(1):
        assert await _holder(storage) not in (None, holders[0])  # taken afresh
    await sessions.close()
    assert await _holder(storage) is None


async def test_another_process_gets_the_chat_after_the_lease(storage: Storage) -> None:
    first, second = ChatTurns(storage, linger=0.3), ChatTurns(storage, linger=0.3)
    order: list[str] = []
    async with first.turn(1):
        order.append("first")
    async with second.turn(1):  # waits out the first process's lease
        order.append("second")
        assert await _holder(storage) is not None
    async with second.turn(2):
        order.append("other chat")
    await second.close()
    assert order == ["first", "second", "other chat"]
    assert await _holder(storage) is None


async def test_shutdown_hands_the_chat_over_at_once(storage: Storage) -> None:
    first, second = ChatTurns(storage, linger=60), ChatTurns(storage, linger=60)
    async with first.turn(1):
        held = await _holder(storage)
        assert held is not None
    await first.close()
    async with asyncio.timeout(5):  # a 60 s lease would outlast this: close() released it
        async with second.turn(1):
            assert await _holder(storage) not in (None, held)  # the second's own lease
    await second.close()


async def test_a_long_conversation_renews_its_lease_and_a_lapsed_one_is_retaken(
    storage: Storage,
) -> None:
    sessions = ChatTurns(storage, lock_ttl=1.0, renew_after=0.0, linger=60)
    async with sessions.turn(1):
        token = await _holder(storage)
    await asyncio.sleep(0.6)
    async with sessions.turn(1):  # renews the lock for another second
        assert await _holder(storage) == token
    await asyncio.sleep(0.6)  # 1.2 s after it was taken: alive only if renewed
    async with sessions.turn(1):
        assert await _holder(storage) == token
    await asyncio.sleep(1.2)  # it lapsed in Redis while this process kept the lease
    await storage.redis.set(LOCK, "another process", px=200)
    async with sessions.turn(1):  # not ours any more: waited for and taken afresh
        assert await _holder(storage) not in (None, token, b"another process")
    await sessions.close()
    assert await _holder(storage) is None


def _other_process(storage: Storage) -> Storage:
    """The same databases seen by another process: its own in-memory pins."""
    scope = f"clubman:{EventDocument.get_pymongo_collection().database.name}:"
    return dataclasses.replace(
        storage,
        runs=RunRepository(ActiveRunIndex(storage.redis, prefix=scope + "active:")),
        users=UserRepository(storage.redis, prefix=scope + "user:"),
    )


def _run(chat_id: int) -> ScenarioRun:
    return ScenarioRun(chat_id=chat_id, user_id=chat_id, scenario="book_rooms")


async def test_a_held_chat_is_served_from_memory(storage: Storage) -> None:
    sessions = ChatTurns(storage, linger=60)
    async with sessions.turn(1):
        created = await storage.runs.create(_run(1))
        assert [r.short_id for r in await storage.runs.active_for_chat(1)] == [created.short_id]
        profile = await storage.users.profile(1, name="Анна")
    await storage.redis.flushdb()  # only memory can answer now (the lease is ours)
    async with sessions.turn(1):
        assert [r.short_id for r in await storage.runs.active_for_chat(1)] == [created.short_id]
        assert await storage.users.profile(1) == profile
        user = await storage.users.get(1)
        assert user is not None
        user.timezone = "Asia/Tokyo"
        await storage.users.save(user)  # a change made here is seen at once
        assert (await storage.users.profile(1)).timezone == "Asia/Tokyo"
    await sessions.close()


async def test_a_chat_taken_back_from_another_process_is_read_afresh(storage: Storage) -> None:
    here, there = storage, _other_process(storage)
    ours, theirs = ChatTurns(here, linger=0.1), ChatTurns(there, linger=0.1)
    async with ours.turn(1):
        assert await here.runs.active_for_chat(1) == []
        assert (await here.users.profile(1, name="Анна")).timezone is None
    async with theirs.turn(1):  # after our lease: the other process starts a run
        started = await there.runs.create(_run(1))
        user = await there.users.get(1)
        assert user is not None
        user.timezone = "Asia/Tokyo"
        await there.users.save(user)
    await theirs.close()
    async with ours.turn(1):
        assert [r.short_id for r in await here.runs.active_for_chat(1)] == [started.short_id]
        assert (await here.users.profile(1)).timezone == "Asia/Tokyo"
    await ours.close()


async def test_a_turn_says_whether_the_lease_was_taken_afresh(storage: Storage) -> None:
    sessions = ChatTurns(storage, linger=0.1)
    fresh = []
    for _ in range(2):
        async with sessions.turn(1) as taken:
            fresh.append(taken)
    await _until_released(storage)
    async with sessions.turn(1) as taken:
        fresh.append(taken)
    await sessions.close()
    assert fresh == [True, False, True]


async def test_a_turn_taken_for_a_whole_update_is_continued_inside_it_not_waited_for(
    storage: Storage,
) -> None:
    """The Telegram view takes the chat's turn for an update; the core's turn inside the
    same task is that turn, while another task's turn waits until the update is done."""
    sessions = ChatTurns(storage, linger=0.1)
    order: list[str] = []

    async def other_update() -> None:
        async with sessions.turn(1):
            order.append("other")

    async with sessions.turn(1) as fresh:
        waiting = asyncio.create_task(other_update())
        async with asyncio.timeout(5), sessions.turn(1) as inner:  # no deadlock
            order.append("inner")
            assert inner == fresh
        await asyncio.sleep(0.05)
        assert not waiting.done()
        order.append("outer done")
    await waiting
    assert order == ["inner", "outer done", "other"]
    await sessions.close()
