"""Waiting out a storage outage inside a run's task: a checkpoint (or a step reading
storage) that cannot reach it is tried again with backoff until it answers, and the user
is told once that the run will finish later (``core.runner``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import structlog

from core.errors import StorageUnavailable
from core.output import OutputSink, Reply

__all__ = ["OutagePolicy", "StoragePause"]

log = structlog.get_logger("clubman.runner")

_T = TypeVar("_T")


@dataclass(frozen=True)
class OutagePolicy:
    """How a run waits for storage to come back: backoff from ``first`` to ``longest``
    seconds between tries (short enough to notice a return within seconds)."""

    first: float = 0.5
    longest: float = 5.0


class StoragePause:
    """One run task's waits for storage: each call is tried until storage answers; the
    user hears once (``notice``, None: nobody to tell yet) that it will finish later."""

    def __init__(self, policy: OutagePolicy, sink: OutputSink, notice: Reply | None) -> None:
        self._policy = policy
        self._sink = sink
        self._notice = notice

    async def through(self, call: Callable[[], Awaitable[_T]]) -> _T:
        delay = self._policy.first
        while True:
            try:
                return await call()
            except StorageUnavailable as exc:
                log.warning("run.storage_unavailable", error=exc.message, retry_in=delay)
                if self._notice is not None:
                    # Straight to the view: storage is what is missing, it cannot keep this.
                    await self._sink.deliver(self._notice)
                    self._notice = None
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._policy.longest)
