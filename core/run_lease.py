"""A run executes in one process at a time: its task holds the run's lease.

Several processes act on the same runs: the bot (or its webhook replicas) and the MCP
server (a desktop client starts one at each launch). Each resumes the runs it finds
``running`` when it starts; without a lease, a process starting while another is in the
middle of a booking would run the same steps beside it. The lease is a ``Locks`` lock
named after the run: a run whose lease another live process holds is left to it; a dead
holder's lease is taken over at once (``Locks``), so a run killed with its process
resumes in the next one without waiting out the lease. The holder renews it while the
run goes on.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from core.errors import StorageError, StorageUnavailable
from core.store import Locks

__all__ = ["RunLease", "RunLeases"]

log = structlog.get_logger("clubman.runner")


class RunLease:
    def __init__(self, locks: Locks, key: str, token: str, *, ttl: float) -> None:
        self._locks = locks
        self._key = key
        self._token = token
        self._ttl = ttl
        self._renewal = asyncio.create_task(self._renew(), name=f"lease:{key}")

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self._ttl / 3)
            try:
                if not await self._locks.extend(self._key, self._token, ttl=self._ttl):
                    log.warning("run.lease_lost", key=self._key)  # lapsed in an outage
                    return
            except StorageError as exc:  # tried again at the next beat, within the ttl
                log.warning("run.lease_not_renewed", key=self._key, error=exc.message)

    async def release(self) -> None:
        self._renewal.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._renewal
        await self._locks.release(self._key, self._token)


class RunLeases:
    def __init__(self, locks: Locks, *, ttl: float = 60.0) -> None:
        self._locks = locks
        self._ttl = ttl

    async def take(self, run_id: str) -> RunLease | None:
        """The run's lease, or None when another live process holds it. Storage being
        unreachable is ``StorageUnavailable`` (the runner waits it out)."""
        key = f"run:{run_id}"
        try:
            token = await self._locks.acquire(key, ttl=self._ttl, wait=0)
        except StorageUnavailable:
            raise
        except StorageError:  # held by a live process: tried once, not waited for
            return None
        return RunLease(self._locks, key, token, ttl=self._ttl)
