"""The MCP server's world: the reference portal (in this process), a fresh database on
the shared SecantusDB and real Redis, and the environment a ``clubman mcp`` process
gets to use them."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from portal.server import running_portal
from storage import Storage, open_storage
from tests.fakes.telegram import FakeTelegram
from tests.mcpserver.support import mongo_uri_for


@dataclass
class World:
    storage: Storage
    portal: str
    env: dict[str, str]  # for a ``clubman`` process on this world
    tmp: Path


@pytest.fixture
async def world(secantus_uri: str, redis_url: str, tmp_path: Path) -> AsyncIterator[World]:
    db = f"mcp_{uuid.uuid4().hex[:10]}"
    async with (
        running_portal(test_api=True, seed=1) as portal,
        open_storage(
            mongodb_uri=secantus_uri, redis_url=redis_url, data_dir=tmp_path, db_name=db
        ) as storage,
    ):
        await storage.redis.flushdb()
        env = {
            "MONGODB_URI": mongo_uri_for(secantus_uri, db),
            "REDIS_URL": redis_url,
            "PORTAL__URL": portal.url,
            "PORTAL__USERNAME": "club",
            "PORTAL__PASSWORD": "club-demo",
            "DATA_DIR": str(tmp_path / "data"),
            "LOG_LEVEL": "WARNING",
            "BROWSER__MAX_CONTEXTS": "2",
            "TIMEZONE": "Europe/Moscow",
        }
        yield World(storage=storage, portal=portal.url, env=env, tmp=tmp_path)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token="123456:TEST-TOKEN") as fake:
        yield fake
