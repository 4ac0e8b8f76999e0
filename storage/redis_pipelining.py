"""Automatic pipelining for redis-py's asyncio client.

Every message costs a few Redis commands (chat lock, run index, profile), and under load
many chats issue theirs at once. redis-py sends each command on its own: a pool
checkout, a socket write and a wake-up per command. This client gathers the commands
that tasks issue within one event-loop iteration and sends them as one
non-transactional pipeline: one checkout, one write, one read. ioredis and Lettuce do
the same. Each caller still gets its own result or its own error. With 10 or 50
commands at once the CPU per command falls 1.8x or 2.6x; a lone command pays about
15 µs more for the hop (``python -m bench.redis_pipelining``).

Blocking commands (BLPOP and kin) are sent on their own: in a pipeline they would hold
back every command batched after them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis

__all__ = ["PipeliningRedis"]

_BLOCKING = frozenset(
    {
        "BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP",
        "XREAD", "XREADGROUP", "WAIT", "WAITAOF", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE",
        "MONITOR",
    }
)  # fmt: skip
_MAX_BATCH = 512

_Pending = tuple[tuple[Any, ...], dict[str, Any], asyncio.Future[Any]]


class PipeliningRedis(aioredis.Redis):
    """``redis.asyncio.Redis`` whose concurrent commands share round trips."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._batch: list[_Pending] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        if str(args[0]).upper() in _BLOCKING:
            return await super().execute_command(*args, **options)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self._batch:
            loop.call_soon(self._flush)
        self._batch.append((args, options, future))
        if len(self._batch) >= _MAX_BATCH:
            self._flush()
        return await future

    def _flush(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:  # already sent when it grew to _MAX_BATCH
            return
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, batch: list[_Pending]) -> None:
        try:
            if len(batch) == 1:
                args, options, _ = batch[0]
                results: list[Any] = [await super().execute_command(*args, **options)]
            else:
                pipe = self.pipeline(transaction=False)
                for args, options, _ in batch:
                    pipe.execute_command(*args, **options)
                results = await pipe.execute(raise_on_error=False)
        except asyncio.CancelledError:
            for _, _, future in batch:
                future.cancel()
            raise
        except Exception as exc:
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():  # its caller was cancelled
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        """Let commands already issued finish before the connections close."""
        if self._batch:
            self._flush()
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)
        await super().aclose(close_connection_pool)
