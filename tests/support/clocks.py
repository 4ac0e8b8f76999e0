"""Letting a ``ManualClock`` run at the pace of real time for a while."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from core.clock import ManualClock

__all__ = ["ticking"]


@asynccontextmanager
async def ticking(clock: ManualClock, *, step: float = 0.1) -> AsyncIterator[None]:
    """Advance ``clock`` by ``step`` seconds every ``step`` seconds until the block ends
    (e.g. so the portal's sessions, which live on that clock, can expire)."""

    async def tick() -> None:
        while True:
            await asyncio.sleep(step)
            clock.advance(timedelta(seconds=step))

    task = asyncio.create_task(tick())
    try:
        yield
    finally:
        task.cancel()
