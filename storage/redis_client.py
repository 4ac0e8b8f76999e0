"""The one place that opens Redis: a real server from ``REDIS_URL``, else fakeredis."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
import redis.exceptions

from core.errors import ConfigError, StorageUnavailable
from storage.redis_pipelining import PipeliningRedis

__all__ = ["RedisClient", "open_redis"]

RedisClient = aioredis.Redis


def _from_url(url: str) -> aioredis.Redis:
    try:
        return PipeliningRedis.from_url(url, socket_connect_timeout=3, health_check_interval=30)
    except ValueError as exc:
        raise ConfigError("REDIS_URL is malformed", hint="use redis://host:6379/0") from exc


@asynccontextmanager
async def open_redis(url: str | None) -> AsyncIterator[aioredis.Redis]:
    """Yield a connected client; without a URL, an in-process fakeredis (zero-config demo)."""
    client: Any
    if url:
        client = _from_url(url)
        try:
            await client.ping()
        except redis.exceptions.RedisError as exc:
            await client.aclose()
            parts = urlsplit(url)  # host and port only: never echo a password
            target = f"{parts.hostname}:{parts.port or 6379}"
            raise StorageUnavailable(
                f"cannot reach Redis at {target}",
                hint="start redis-server or fix REDIS_URL; unset it to use in-process fakeredis",
            ) from exc
    else:
        from fakeredis import FakeAsyncRedis  # only the zero-config path needs it

        client = FakeAsyncRedis()
    try:
        yield client
    finally:
        await client.aclose()
