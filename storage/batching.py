"""Group commit for append-only documents (events, conversation messages).

``append`` queues a document and returns at once; one background task writes whatever
has queued with a single ``insert_many``. Rows gather for a few milliseconds (or until
someone reads) and go in one insert: under load a round trip per batch, not per record.

Reads that must see earlier appends call ``flush`` first (the repositories do), so this
process reads its own writes. The price: records queued when the process is killed are
lost. Only audit records go through here; run state is always written synchronously.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import Any

import structlog
from beanie import Document
from pymongo.errors import BulkWriteError

from storage.errors import translate_errors

__all__ = ["BatchWriter"]

log = structlog.get_logger("clubman.storage")


class BatchWriter:
    """Writes rows to ``document``'s collection. Rows are plain dicts, not documents:
    building and encoding a Beanie document costs more than the write it batches."""

    def __init__(
        self,
        document: type[Document],
        *,
        max_batch: int = 500,
        linger_seconds: float = 0.02,
        attempts: int = 3,
        backoff_seconds: float = 0.2,
        write_turn: asyncio.Lock | None = None,
    ) -> None:
        self._document = document
        # Writers sharing a turn never have two inserts in flight (see open_storage).
        self._turn = write_turn or asyncio.Lock()
        self._max_batch = max_batch
        self._linger = linger_seconds
        self._attempts = attempts
        self._backoff = backoff_seconds
        self._pending: list[dict[str, Any]] = []
        self._queued = 0  # documents ever appended
        self._settled = 0  # documents written (or given up on)
        self._changed = asyncio.Condition()
        self._wake = asyncio.Event()
        self._hurry = asyncio.Event()  # someone is waiting in flush(), or closing
        self._closing = False
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> BatchWriter:
        self._task = asyncio.create_task(self._run(), name=f"batch:{self._document.__name__}")
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # A clean stop, not a cancel: the writer drains what is queued, then returns.
        self._closing = True
        self._wake.set()
        self._hurry.set()
        if self._task is not None:
            await self._task
            self._task = None

    def append(self, row: dict[str, Any]) -> None:
        """Queue one stored row of the collection (field names as the document has them)."""
        if self._task is None or self._closing:
            raise RuntimeError(f"{self._document.__name__} writer is not open")
        self._pending.append(row)
        self._queued += 1
        self._wake.set()

    async def flush(self) -> None:
        """Wait until everything appended so far has been written."""
        target = self._queued
        if self._settled >= target:
            return
        self._hurry.set()
        async with self._changed:
            await self._changed.wait_for(lambda: self._settled >= target)

    async def _run(self) -> None:
        while not self._closing or self._pending:
            await self._wake.wait()
            # Nobody waits for these writes, so waiting a little for more rows costs no
            # one anything and saves round trips; a flush() cuts the wait short.
            # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel.)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._linger):
                    await self._hurry.wait()
            self._wake.clear()
            self._hurry.clear()
            while self._pending:
                batch = self._pending[: self._max_batch]
                del self._pending[: len(batch)]
                async with self._turn:
                    await self._write(batch)
                async with self._changed:
                    self._settled += len(batch)
                    self._changed.notify_all()

    async def _write(self, rows: list[dict[str, Any]]) -> None:
        collection = self._document.get_pymongo_collection()
        what = f"storing {len(rows)} {self._document.__name__} records"
        for attempt in range(1, self._attempts + 1):
            try:
                with translate_errors(what):
                    # ordered=False: a retry after a partial write skips the rows that
                    # made it (duplicate _id) and writes the rest.
                    await collection.insert_many(rows, ordered=False)
                return
            except Exception as exc:  # the writer must outlive any one failure
                if _only_duplicates(exc):
                    return
                if attempt == self._attempts:
                    log.exception("records.lost", document=self._document.__name__, count=len(rows))
                    return
                await asyncio.sleep(self._backoff * attempt)


def _only_duplicates(exc: BaseException) -> bool:
    """A retried batch whose rows were already written: every error is a duplicate key."""
    cause = exc.__cause__
    if not isinstance(cause, BulkWriteError):
        return False
    errors = cause.details.get("writeErrors", [])
    return bool(errors) and all(e.get("code") == 11000 for e in errors)
