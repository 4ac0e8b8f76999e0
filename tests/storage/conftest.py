"""Fixtures for the storage suites."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage.redis_client import RedisClient, open_redis


@pytest.fixture(params=["redis-server", "fakeredis"])
async def redis(request: pytest.FixtureRequest) -> AsyncIterator[RedisClient]:
    """A flushed client of a real redis-server, then of fakeredis (the zero-config one)."""
    url = request.getfixturevalue("redis_url") if request.param == "redis-server" else None
    async with open_redis(url) as client:
        await client.flushdb()
        yield client
