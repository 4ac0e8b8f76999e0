"""The auto-pipelining Redis client against a real redis-server."""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
import redis.exceptions

from storage.redis_pipelining import PipeliningRedis


@pytest.fixture
def name() -> str:
    return f"pipe-{uuid.uuid4().hex[:8]}"


@pytest.fixture
async def client(redis_url: str, name: str) -> AsyncIterator[aioredis.Redis]:
    client = PipeliningRedis.from_url(redis_url, client_name=name)
    yield client
    await client.aclose()


@pytest.fixture
async def observer(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    plain = aioredis.Redis.from_url(redis_url)
    yield plain
    await plain.aclose()


async def _connections_named(observer: aioredis.Redis, name: str) -> int:
    return sum(1 for c in await observer.client_list() if c.get("name") == name)


async def test_concurrent_commands_share_one_connection(
    client: aioredis.Redis, observer: aioredis.Redis, name: str
) -> None:
    async def own_key(i: int) -> bytes | str | None:
        await client.set(f"{name}:{i}", f"v{i}")
        return await client.get(f"{name}:{i}")

    values = await asyncio.gather(*(own_key(i) for i in range(50)))

    assert values == [f"v{i}".encode() for i in range(50)]
    # Without pipelining 50 concurrent callers would have opened 50 connections.
    assert await _connections_named(observer, name) == 1


async def test_an_error_fails_only_its_own_command(client: aioredis.Redis, name: str) -> None:
    await client.set(f"{name}:text", "not a number")
    results = await asyncio.gather(
        client.incr(f"{name}:n"),
        client.incr(f"{name}:text"),
        client.incr(f"{name}:n"),
        return_exceptions=True,
    )
    assert results[0] == 1
    assert isinstance(results[1], redis.exceptions.ResponseError)
    assert results[2] == 2


async def test_scripts_reload_after_a_script_flush(client: aioredis.Redis, name: str) -> None:
    double = client.register_script("return tonumber(ARGV[1]) * 2")
    assert await double(args=[1]) == 2
    await client.script_flush()
    # Every caller meets NOSCRIPT in one pipeline, loads the script and retries.
    assert await asyncio.gather(*(double(args=[i]) for i in range(10))) == [
        i * 2 for i in range(10)
    ]


async def test_a_cancelled_caller_does_not_disturb_the_others(
    client: aioredis.Redis, name: str
) -> None:
    await client.set(f"{name}:k", "v")
    doomed = asyncio.ensure_future(client.get(f"{name}:k"))
    kept = asyncio.ensure_future(client.get(f"{name}:k"))
    await asyncio.sleep(0)  # both queued in the same batch
    doomed.cancel()
    assert await kept == b"v"
    with pytest.raises(asyncio.CancelledError):
        await doomed
    assert await client.get(f"{name}:k") == b"v"


async def test_blocking_commands_do_not_hold_back_the_batch(
    client: aioredis.Redis, name: str
) -> None:
    finished: list[str] = []

    async def pop() -> None:
        await client.blpop([f"{name}:empty"], timeout=0.5)
        finished.append("blpop")

    async def get() -> None:
        await client.get(f"{name}:missing")
        finished.append("get")

    await asyncio.gather(pop(), get())
    assert finished == ["get", "blpop"]


async def test_an_unreachable_server_fails_every_caller() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, not listening: connections are refused
        client = PipeliningRedis.from_url(f"redis://127.0.0.1:{port}/0", socket_connect_timeout=1)
        results = await asyncio.gather(
            *(client.get(f"k{i}") for i in range(5)), return_exceptions=True
        )
        await client.aclose()
    assert all(isinstance(r, redis.exceptions.ConnectionError) for r in results)


async def test_close_lets_issued_commands_finish(redis_url: str, name: str) -> None:
    client = PipeliningRedis.from_url(redis_url)
    issued = [asyncio.ensure_future(client.set(f"{name}:{i}", i)) for i in range(5)]
    await asyncio.sleep(0)  # queued, not yet sent
    await client.aclose()
    assert [await f for f in issued] == [True] * 5
    check = aioredis.Redis.from_url(redis_url)
    assert await check.get(f"{name}:4") == b"4"
    await check.aclose()
