"""Storage on a database of the test's own, Redis flushed: what every storage fixture
opens, whichever loop it runs on."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from storage import Storage, open_storage

__all__ = ["fresh_storage"]


@asynccontextmanager
async def fresh_storage(mongo_uri: str, redis_url: str, data_dir: Path) -> AsyncIterator[Storage]:
    async with open_storage(
        mongodb_uri=mongo_uri,
        redis_url=redis_url,
        data_dir=data_dir,
        db_name=f"t_{uuid.uuid4().hex[:12]}",
    ) as opened:
        await opened.redis.flushdb()
        yield opened
