"""Outgoing flood control: one ordered lane (queue + worker) per chat in front of the Bot.

Each lane takes a token from its chat's limiter and then from the global one (aiolimiter
leaky buckets: ~1 message/s per chat with short bursts, ~30/s in total) before each call.
A 429 ``retry_after`` pauses only that lane and the call is retried; nothing is dropped.
A lane's worker runs only while it has work; idle lanes are forgotten after a while, so
thousands of chats cost nothing at rest.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import structlog
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import TelegramMethod
from aiolimiter import AsyncLimiter

from core.metrics import Metrics

__all__ = ["FloodLimits", "Outbox", "OutboxStats", "is_not_modified"]

log = structlog.get_logger("clubman.bot.outbox")

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class FloodLimits:
    """Our side of Telegram's limits. Rates a little under Telegram's and bursts well under
    its bucket sizes: requests reach the server with jitter (bunched up), and the slack in
    the server's bucket absorbs that instead of answering 429."""

    per_chat_rate: float = 1.0  # messages per second, sustained
    per_chat_burst: int = 2
    global_rate: float = 29.0
    global_burst: int = 10


@dataclass
class OutboxStats:
    sent: int = 0
    retry_after: int = 0  # 429s received
    failed: int = 0
    slept: float = 0.0  # seconds lanes spent waiting out 429s


def is_not_modified(exc: BaseException) -> bool:
    """Telegram's answer to an edit that changes nothing: not an error for us."""
    return isinstance(exc, TelegramBadRequest) and "message is not modified" in exc.message


Gate = Callable[[], Awaitable[bool]]


@dataclass
class _Job:
    method: TelegramMethod[Any]
    future: asyncio.Future[Any]
    gate: Gate | None = None  # asked right before the call; False: not sent, future cancelled


@dataclass
class _Lane:
    limiter: AsyncLimiter
    chat_id: Hashable
    queue: asyncio.Queue[_Job] = field(default_factory=asyncio.Queue)
    worker: asyncio.Task[None] | None = None
    idle_since: float = 0.0


def _consume(future: asyncio.Future[Any]) -> None:
    # Fire-and-forget posts: mark the exception retrieved (the worker logged it already).
    if not future.cancelled():
        future.exception()


class Outbox:
    def __init__(
        self,
        bot: Bot,
        *,
        limits: FloodLimits | None = None,
        idle_seconds: float = 30.0,
        max_attempts: int = 5,
        metrics: Metrics | None = None,
    ) -> None:
        self._bot = bot
        self._metrics = metrics
        self._limits = limits or FloodLimits()
        self._global = AsyncLimiter(
            self._limits.global_burst, self._limits.global_burst / self._limits.global_rate
        )
        self._idle = idle_seconds
        self._max_attempts = max_attempts
        self._lanes: dict[Hashable, _Lane] = {}
        self._swept_at = 0.0
        self._closed = False
        self.stats = OutboxStats()

    def post(
        self, chat_id: Hashable, method: TelegramMethod[T], *, gate: Gate | None = None
    ) -> asyncio.Future[T]:
        """Queue ``method`` behind the chat's earlier calls; the future holds its result.
        ``gate`` is awaited when the call's turn comes, right before it leaves: a durable
        reply records there that it is being sent (``core.replies``)."""
        if self._closed:
            raise RuntimeError("outbox is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        future.add_done_callback(_consume)
        if loop.time() - self._swept_at > self._idle:
            self._sweep(loop.time())
        lane = self._lanes.get(chat_id)
        if lane is None:
            lim = self._limits
            limiter = AsyncLimiter(lim.per_chat_burst, lim.per_chat_burst / lim.per_chat_rate)
            lane = self._lanes[chat_id] = _Lane(limiter=limiter, chat_id=chat_id)
        lane.queue.put_nowait(_Job(method, future, gate))
        if lane.worker is None:
            lane.worker = asyncio.create_task(self._work(lane), name=f"outbox:{chat_id}")
        return future

    async def call(self, chat_id: Hashable, method: TelegramMethod[T]) -> T:
        return await self.post(chat_id, method)

    @property
    def pending(self) -> int:
        return sum(lane.queue.qsize() for lane in self._lanes.values())

    async def drain(self) -> None:
        """Wait until every queued call has been made."""
        while self._lanes:
            await asyncio.gather(*(lane.queue.join() for lane in list(self._lanes.values())))
            await asyncio.sleep(0)
            if all(lane.queue.empty() for lane in self._lanes.values()):
                return

    async def close(self, *, timeout: float = 10.0) -> None:
        """Send what is queued (up to ``timeout``), then stop every lane."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), timeout)
        self._closed = True
        workers = [lane.worker for lane in self._lanes.values() if lane.worker is not None]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._lanes.clear()

    async def _work(self, lane: _Lane) -> None:
        """Run the lane's jobs in order; the worker ends when the queue is empty (``post``
        starts another), the lane and its limiter stay until ``_sweep`` finds them idle."""
        try:
            while not lane.queue.empty():
                job = lane.queue.get_nowait()
                try:
                    if not job.future.done():
                        await self._run(lane, job)
                except Exception as exc:  # a bug must not strand the chat's later messages
                    if not job.future.done():
                        job.future.set_exception(exc)
                finally:
                    lane.queue.task_done()
        finally:
            lane.worker = None
            lane.idle_since = asyncio.get_running_loop().time()

    def _sweep(self, now: float) -> None:
        """Forget lanes idle for ``idle_seconds``: their limiters are full again by then."""
        self._swept_at = now
        idle = [
            chat_id
            for chat_id, lane in self._lanes.items()
            if lane.worker is None and lane.queue.empty() and now - lane.idle_since > self._idle
        ]
        for chat_id in idle:
            del self._lanes[chat_id]

    async def _run(self, lane: _Lane, job: _Job) -> None:
        chat_id = lane.chat_id
        attempt = 0
        gate = job.gate
        while True:
            await lane.limiter.acquire()
            await self._global.acquire()
            if gate is not None:  # asked once, after the wait for tokens: nothing in between
                if not await gate():
                    job.future.cancel()
                    return
                gate = None
            try:
                result = await self._bot(job.method)
            except TelegramRetryAfter as exc:
                # Flood control: this chat waits, the others go on; the call is retried.
                self.stats.retry_after += 1
                self.stats.slept += exc.retry_after
                if self._metrics is not None:
                    self._metrics.throttled(type(job.method).__name__)
                log.warning(
                    "outbox.retry_after",
                    chat_id=chat_id,
                    seconds=exc.retry_after,
                    method=type(job.method).__name__,
                )
                await asyncio.sleep(exc.retry_after)
                continue
            except (TelegramNetworkError, TelegramServerError) as exc:
                attempt += 1
                if attempt < self._max_attempts:
                    await asyncio.sleep(min(0.25 * 2**attempt, 10.0))
                    continue
                self._fail(chat_id, job, exc)
                return
            except Exception as exc:
                self._fail(chat_id, job, exc)
                return
            self.stats.sent += 1
            if not job.future.done():
                job.future.set_result(result)
            return

    def _fail(self, chat_id: Hashable, job: _Job, exc: Exception) -> None:
        if not is_not_modified(exc):
            self.stats.failed += 1
            log.warning(
                "outbox.failed", chat_id=chat_id, method=type(job.method).__name__, error=str(exc)
            )
        if not job.future.done():
            job.future.set_exception(exc)
