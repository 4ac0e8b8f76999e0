"""Per-chat ordering, the product's one mechanism for it: a FIFO lock per chat in this
process, held together with a Redis lock so two processes never interleave one chat.
A view may take a chat's turn for a whole update (the Telegram view does, so a chat's
updates are handled in arrival order); the core's own turns inside it are then the
same turn (re-entrant within one task).

The Redis lock names the process holding it: when that process dies (a crash, a
SIGKILL), the next process wanting the chat takes it at once (``Locks.acquire``) rather
than waiting out ``lock_ttl``.

The Redis lock is kept as a lease: after a turn this process holds it for ``linger``
seconds more, so a conversation going back and forth (an answer, a tap, the next
message) takes it once instead of twice per message. Another process wanting the
chat meanwhile waits at most ``linger`` longer. Each turn starts with at least
``lock_ttl - renew_after`` seconds left on the lock, as when it was taken per turn.

While the lease is held, nothing else acts in the chat, so storage keeps the chat's
active-run ids (and, in a private chat, whose id is the user's, the user's profile) in
memory: a message in a quiet chat then needs no Redis round trip at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from core.store import Store

__all__ = ["ChatTurns"]


@dataclass
class _Lease:
    token: str
    renew_at: float  # loop time after which a turn extends the lock before it starts
    release: asyncio.TimerHandle | None = None


class ChatTurns:
    def __init__(
        self,
        storage: Store,
        *,
        lock_ttl: float = 60.0,
        renew_after: float = 5.0,
        linger: float = 1.0,
    ) -> None:
        self._storage = storage
        self._lock_ttl = lock_ttl
        self._renew_after = renew_after
        self._linger = linger
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}
        self._leases: dict[int, _Lease] = {}
        self._releasing: set[asyncio.Task[None]] = set()
        # chat → the task whose turn it is, and whether its lease was fresh
        self._holders: dict[int, tuple[asyncio.Task[object] | None, bool]] = {}

    @asynccontextmanager
    async def turn(self, chat_id: int) -> AsyncIterator[bool]:
        """Wait for this chat's turn; asyncio.Lock wakes waiters in arrival order.

        Yields whether the lease was taken afresh: then nothing of the chat is in
        memory yet, and every read goes to Redis. Within the task whose turn it is, the
        turn is simply continued."""
        me = asyncio.current_task()
        holder = self._holders.get(chat_id)
        if holder is not None and holder[0] is me:
            yield holder[1]
            return
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._users[chat_id] = self._users.get(chat_id, 0) + 1
        try:
            async with lock:
                fresh = await self._take_lease(chat_id)
                self._holders[chat_id] = (me, fresh)
                try:
                    yield fresh
                finally:
                    del self._holders[chat_id]
        finally:
            self._users[chat_id] -= 1
            if not self._users[chat_id]:  # nobody waiting: forget the chat, soon its lease
                del self._users[chat_id]
                self._locks.pop(chat_id, None)
                self._release_later(chat_id)

    async def close(self) -> None:
        """Release every lease now (at shutdown)."""
        for chat_id in list(self._leases):
            self._release_now(chat_id)
        if self._releasing:
            await asyncio.gather(*self._releasing)

    async def _take_lease(self, chat_id: int) -> bool:
        """Hold the chat's lease; True if it had to be taken afresh."""
        loop = asyncio.get_running_loop()
        key = f"chat:{chat_id}"
        lease = self._leases.get(chat_id)
        if lease is not None:
            if lease.release is not None:
                lease.release.cancel()
                lease.release = None
            if loop.time() < lease.renew_at:
                return False
            if await self._storage.locks.extend(key, lease.token, ttl=self._lock_ttl):
                lease.renew_at = loop.time() + self._renew_after
                return False
            # It lapsed: another process may have acted in the chat. Take it afresh.
            del self._leases[chat_id]
            self._unpin(chat_id)
        token = await self._storage.locks.acquire(key, ttl=self._lock_ttl)
        self._leases[chat_id] = _Lease(token, loop.time() + self._renew_after)
        self._storage.runs.pin_chat(chat_id)
        if chat_id > 0:  # a private chat: Telegram gives it the user's id
            self._storage.users.pin(chat_id)
        return True

    def _unpin(self, chat_id: int) -> None:
        self._storage.runs.unpin_chat(chat_id)
        self._storage.users.unpin(chat_id)

    def _release_later(self, chat_id: int) -> None:
        lease = self._leases.get(chat_id)
        if lease is not None and lease.release is None:
            lease.release = asyncio.get_running_loop().call_later(
                self._linger, self._release_now, chat_id
            )

    def _release_now(self, chat_id: int) -> None:
        lease = self._leases.pop(chat_id, None)
        if lease is None:
            return
        self._unpin(chat_id)
        if lease.release is not None:
            lease.release.cancel()
        task = asyncio.get_running_loop().create_task(
            self._storage.locks.release(f"chat:{chat_id}", lease.token)
        )
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)
