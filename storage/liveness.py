"""Which process holds a lock, and whether it still lives.

A lock's value names its holder (``ProcessIdentity``), so a process starting after a
crash need not wait out the dead holder's lock (60 s for a chat) before answering:

- Every process keeps a liveness key ``clubman:proc:{identity}`` in Redis, set every
  ``beat`` seconds to expire after ``ttl`` (``Heartbeat``). A holder whose key is gone
  is dead, wherever it ran; its locks are taken over at once. A living process's key
  outlasts an event loop stalled for ``ttl - beat`` seconds.
- A dead holder's key still lives for up to ``ttl`` after a SIGKILL. On one machine a
  restarted process need not wait for that: a holder in the same pid namespace whose
  pid is not running, or runs a process started at another time, is dead now
  (``provably_dead``). The start time, not a random nonce, tells incarnations apart,
  so a container's pid 1 restarted in place (same host, same pid) is told from the
  one before, and every part of one process agrees on its identity without sharing it.
  Another pid namespace (another container, a restarted container, another machine)
  proves nothing here: its holders are judged by their key alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import structlog

from core.errors import StorageError
from storage.errors import translate_errors
from storage.redis_client import RedisClient

__all__ = ["LIVENESS_PREFIX", "Heartbeat", "ProcessIdentity"]

log = structlog.get_logger("clubman.storage")

LIVENESS_PREFIX = "clubman:proc:"
_PROC = Path("/proc")


def _started(pid: int) -> str | None:
    """The process's start time in clock ticks since boot; None if there is no such
    process (or no /proc to ask)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # Field 22; the command name (field 2) is in parentheses and may hold spaces.
    return stat.rsplit(")", 1)[1].split()[19]


def _pid_space() -> str:
    """This machine's boot and pid namespace, hashed: pids mean the same within it."""
    try:
        boot = (_PROC / "sys/kernel/random/boot_id").read_text().strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:  # no /proc: a space of our own, so nothing is judged by pid
        return "x" + secrets.token_hex(4)
    return hashlib.sha256(f"{boot}:{namespace}".encode()).hexdigest()[:8]


@dataclass(frozen=True, slots=True)
class ProcessIdentity:
    """``host:pid:started:space`` (readable in ``redis-cli``: who holds this chat?)."""

    host: str
    pid: int
    started: str  # start time in clock ticks since boot, or a random nonce without /proc
    space: str

    @classmethod
    def current(cls) -> ProcessIdentity:
        pid = os.getpid()
        started = _started(pid) or secrets.token_hex(4)
        host = socket.gethostname().replace(":", "_") or "host"
        return cls(host=host, pid=pid, started=started, space=_pid_space())

    @classmethod
    def parse(cls, text: str) -> ProcessIdentity | None:
        """The identity written by ``str``; None for anything else (an older lock)."""
        parts = text.split(":")
        if len(parts) != 4 or not parts[1].isdigit():
            return None
        return cls(host=parts[0], pid=int(parts[1]), started=parts[2], space=parts[3])

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.started}:{self.space}"

    def provably_dead(self, *, seen_from: ProcessIdentity) -> bool:
        """True only when ``seen_from``'s machine can tell: same pid namespace, and no
        process of this pid started at this time."""
        if self.space != seen_from.space or self == seen_from:
            return False
        return _started(self.pid) != self.started

    @property
    def liveness_key(self) -> str:
        return f"{LIVENESS_PREFIX}{self}"


class Heartbeat:
    """Keeps this process's liveness key alive while open; deletes it on close."""

    def __init__(
        self, redis: RedisClient, identity: ProcessIdentity, *, beat: float = 1.0, ttl: float = 5.0
    ) -> None:
        self._redis = redis
        self._identity = identity
        self._beat = beat
        self._ttl_ms = max(1, int(ttl * 1000))
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Heartbeat:
        await self._touch()  # before any lock is taken under this identity
        self._task = asyncio.create_task(self._loop(), name="liveness-heartbeat")
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(StorageError), translate_errors("ending liveness"):
            await self._redis.delete(self._identity.liveness_key)

    async def _touch(self) -> None:
        with translate_errors("refreshing liveness"):
            await self._redis.set(self._identity.liveness_key, b"1", px=self._ttl_ms)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._beat)
            try:
                await self._touch()
            except StorageError:  # Redis away for a moment: the next beat tries again
                log.warning("liveness.refresh_failed", exc_info=True)
