"""Per-chat ordering: a FIFO lock per chat in this process, held together with a Redis
lock so two processes never interleave one chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage import Storage

__all__ = ["ChatSessions"]


class ChatSessions:
    def __init__(self, storage: Storage, *, lock_ttl: float = 60.0) -> None:
        self._storage = storage
        self._lock_ttl = lock_ttl
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    @asynccontextmanager
    async def turn(self, chat_id: int) -> AsyncIterator[None]:
        """Wait for this chat's turn; asyncio.Lock wakes waiters in arrival order."""
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._users[chat_id] = self._users.get(chat_id, 0) + 1
        try:
            async with lock, self._storage.locks.hold(f"chat:{chat_id}", ttl=self._lock_ttl):
                yield
        finally:
            self._users[chat_id] -= 1
            if not self._users[chat_id]:  # nobody waiting: forget the chat
                del self._users[chat_id]
                self._locks.pop(chat_id, None)
