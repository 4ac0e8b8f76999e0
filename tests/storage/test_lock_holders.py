"""A lock names the process holding it; a dead holder's lock is taken over at once (issue
16: a restarted bot stayed silent for the rest of the killed process's 60 s chat lock),
a living holder's never. Against a real redis-server and fakeredis."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, cast

import pytest
from redis import exceptions as redis_errors

from core.errors import StorageError
from storage.kv import KeyLocks
from storage.liveness import Heartbeat, ProcessIdentity
from storage.redis_client import RedisClient, open_redis

ROOT = Path(__file__).resolve().parents[2]
LOCK = "clubman:lock:chat:7"


def _elsewhere(pid: int = 4242) -> ProcessIdentity:
    """A process on another machine: nothing local can prove it dead."""
    return ProcessIdentity(host="elsewhere", pid=pid, started="1", space="remote01")


async def _holder_of(redis: RedisClient) -> str:
    value = await redis.get(LOCK)
    assert value is not None
    return (value.decode() if isinstance(value, bytes) else str(value)).rpartition("/")[0]


def test_an_identity_reads_back_from_its_text() -> None:
    me = ProcessIdentity.current()
    assert me.pid == os.getpid()
    assert ProcessIdentity.parse(str(me)) == me
    assert ProcessIdentity.parse("a lock of an older version") is None
    assert not me.provably_dead(seen_from=me)


async def test_the_lock_carries_its_holders_identity(redis: RedisClient) -> None:
    locks = KeyLocks(redis)
    token = await locks.acquire("chat:7", ttl=60)
    assert token.startswith(f"{locks.holder}/")
    assert await _holder_of(redis) == locks.holder == str(ProcessIdentity.current())


async def test_a_holder_without_a_heartbeat_is_dead_and_its_lock_taken_at_once(
    redis: RedisClient,
) -> None:
    await KeyLocks(redis, holder=_elsewhere()).acquire("chat:7", ttl=60)
    ours = KeyLocks(redis)
    await ours.acquire("chat:7", ttl=60, wait=1)  # not the 60 s the lock had left
    assert await _holder_of(redis) == ours.holder


async def test_a_living_holder_elsewhere_keeps_its_lock(redis: RedisClient) -> None:
    alive = _elsewhere()
    async with Heartbeat(redis, alive, beat=0.05, ttl=0.5):
        await KeyLocks(redis, holder=alive).acquire("chat:7", ttl=60)
        await asyncio.sleep(0.6)  # past one ttl of its liveness key: the beats renew it
        with pytest.raises(StorageError, match="timed out"):
            await KeyLocks(redis).acquire("chat:7", ttl=60, wait=0.3)
        assert await _holder_of(redis) == str(alive)
    # Stopped cleanly: its key is gone at once, and so is its hold on the lock.
    await KeyLocks(redis).acquire("chat:7", ttl=60, wait=1)


async def test_every_part_of_one_process_is_one_holder(redis: RedisClient) -> None:
    """No heartbeat runs here, yet a second ``KeyLocks`` of this process waits its turn."""
    await KeyLocks(redis).acquire("chat:7", ttl=60)
    with pytest.raises(StorageError, match="timed out"):
        await KeyLocks(redis).acquire("chat:7", ttl=60, wait=0.2)


async def test_a_lock_of_an_older_version_is_waited_out(redis: RedisClient) -> None:
    await redis.set(LOCK, "0123456789abcdef", px=300)
    with pytest.raises(StorageError, match="timed out"):
        await KeyLocks(redis).acquire("chat:7", ttl=60, wait=0.1)
    await KeyLocks(redis).acquire("chat:7", ttl=60, wait=2)


async def test_a_dead_process_on_this_machine_is_known_dead_before_its_key_lapses(
    redis: RedisClient,
) -> None:
    """A local holder whose pid is gone, or now runs a process started at another time
    (a container's pid 1 restarted in place), is dead although its liveness key lives."""
    me = ProcessIdentity.current()
    gone = subprocess.Popen([sys.executable, "-c", ""])
    gone.wait()
    for dead in (dataclasses.replace(me, pid=gone.pid), dataclasses.replace(me, started="1")):
        await redis.set(dead.liveness_key, b"1", px=60_000)
        await KeyLocks(redis, holder=dead).acquire("chat:7", ttl=60)
        assert dead.provably_dead(seen_from=me)
        await KeyLocks(redis).acquire("chat:7", ttl=60, wait=1)
        assert await _holder_of(redis) == str(me)
        await redis.delete(LOCK)


async def test_a_living_process_on_this_machine_keeps_its_lock(redis: RedisClient) -> None:
    me = ProcessIdentity.current()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        started = (Path("/proc") / str(child.pid) / "stat").read_text().rsplit(")", 1)[1]
        alive = dataclasses.replace(me, pid=child.pid, started=started.split()[19])
        assert not alive.provably_dead(seen_from=me)
        await redis.set(alive.liveness_key, b"1", px=60_000)
        await KeyLocks(redis, holder=alive).acquire("chat:7", ttl=60)
        with pytest.raises(StorageError, match="timed out"):
            await KeyLocks(redis).acquire("chat:7", ttl=60, wait=0.2)
    finally:
        child.kill()
        child.wait()


_HOLD = textwrap.dedent(
    """
    import asyncio, sys
    from storage import open_storage
    from pathlib import Path

    async def main():
        async with open_storage(
            mongodb_uri=sys.argv[1], redis_url=sys.argv[2], data_dir=Path(sys.argv[3])
        ) as storage:
            await storage.locks.acquire("chat:7", ttl=60)
            print("held", flush=True)
            await asyncio.sleep(60)

    asyncio.run(main())
    """
)


async def test_a_killed_bot_process_lock_is_taken_over_at_once(
    secantus_uri: str, redis_url: str, tmp_path: Path
) -> None:
    """The real thing: a process holding a chat's lock through ``open_storage`` (with its
    heartbeat) is SIGKILLed; the next one takes the chat at once."""
    async with open_redis(redis_url) as redis:
        await redis.delete(LOCK)
        child = subprocess.Popen(
            [sys.executable, "-c", _HOLD, secantus_uri, redis_url, str(tmp_path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        try:
            assert child.stdout is not None
            line = await asyncio.to_thread(child.stdout.readline)
            assert line == b"held\n"
            holder = ProcessIdentity.parse(await _holder_of(redis))
            assert holder is not None and holder.pid == child.pid
            with pytest.raises(StorageError, match="timed out"):  # alive: it keeps it
                await KeyLocks(redis).acquire("chat:7", ttl=60, wait=0.2)
            child.send_signal(signal.SIGKILL)
            child.wait()
            assert await redis.exists(holder.liveness_key)  # not lapsed yet, nor needed
            ours = KeyLocks(redis)
            await ours.acquire("chat:7", ttl=60, wait=1)
            assert await _holder_of(redis) == ours.holder
        finally:
            child.kill()
            child.wait()


async def test_whether_a_holder_lives_is_told_by_its_heartbeat_and_its_pid(
    redis: RedisClient,
) -> None:
    locks = KeyLocks(redis)
    assert await locks.alive(locks.holder)  # this process
    assert not await locks.alive(str(_elsewhere()))  # no heartbeat
    await redis.set(_elsewhere().liveness_key, b"1", px=60_000)
    assert await locks.alive(str(_elsewhere()))
    assert not await locks.alive("a lock of an older version")
    gone = subprocess.Popen([sys.executable, "-c", ""])
    gone.wait()
    dead = dataclasses.replace(ProcessIdentity.current(), pid=gone.pid)
    await redis.set(dead.liveness_key, b"1", px=60_000)
    assert not await locks.alive(str(dead))  # its pid no longer runs it


class _CancelComesOutAsAnError:
    """The real client, but its second write waits until it is cancelled, and the cancel
    comes out as a lost connection: what a driver may say when a cancel tears its
    connection down mid-command (a heartbeat hung on it for ever). Only that once, so a
    heartbeat that goes on fails this test instead of hanging it."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis
        self.writes = 0
        self.writing = asyncio.Event()

    async def set(self, *args: Any, **kwargs: Any) -> Any:
        self.writes += 1
        if self.writes != 2:
            return await self._redis.set(*args, **kwargs)
        self.writing.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError as exc:
            raise redis_errors.ConnectionError("Connection closed by server.") from exc

    async def delete(self, *keys: str) -> Any:
        return await self._redis.delete(*keys)


async def test_a_heartbeat_stops_when_its_cancel_comes_out_of_the_driver_as_an_error(
    redis: RedisClient,
) -> None:
    driver = _CancelComesOutAsAnError(redis)
    identity = _elsewhere()
    async with asyncio.timeout(30):  # a guard: before the fix this waited for ever
        async with Heartbeat(cast(RedisClient, driver), identity, beat=0.01, ttl=5):
            await driver.writing.wait()  # the cancel lands inside a write
    assert driver.writes == 2  # no beat after the cancel
    assert await redis.get(identity.liveness_key) is None  # and its key is gone
