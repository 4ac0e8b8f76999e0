"""The update queue behind getUpdates and webhook delivery, plus Update JSON builders."""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.validation import utf16_len

__all__ = ["WEBHOOK_CONFLICT", "UpdateQueue", "command_entities", "update_type"]

JsonDict = dict[str, Any]
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/])")


def command_entities(text: str) -> list[JsonDict]:
    """``bot_command`` entities for every ``/command`` in the text, offsets in UTF-16 units."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: m.start()]),
            "length": utf16_len(m.group()),
        }
        for m in _COMMAND.finditer(text)
    ]


def update_type(update: JsonDict) -> str:
    return next(key for key in update if key != "update_id")


class UpdateQueue:
    """Pending updates; confirmed by ``offset`` (polling) or by a 2xx reply (webhook)."""

    def __init__(self) -> None:
        self._pending: list[JsonDict] = []
        # Telegram's ids start anywhere (and anew after a quiet week); two fakes in one
        # test session (one Redis) must not share them, or the bot's once-only check drops
        # the second's updates as already handled.
        self._next_id = secrets.randbelow(2**31) + 1
        self._arrived = asyncio.Event()
        self._poller = 0  # generation of the newest getUpdates call
        self.allowed_updates: list[str] | None = None
        self.webhook_active = False  # getUpdates answers 409 while set
        self.closed = False

    @property
    def pending(self) -> list[JsonDict]:
        return list(self._pending)

    def put(self, body: JsonDict) -> JsonDict:
        update = {"update_id": self._next_id, **body}
        self._next_id += 1
        self._pending.append(update)
        self._wake()
        return update

    def redeliver(self, update: JsonDict) -> None:
        """Queue ``update`` again with its own id, as Telegram does when its offset was never
        confirmed (the bot died after handling it)."""
        self._pending = sorted([*self._pending, dict(update)], key=lambda u: u["update_id"])
        self._wake()

    def _wake(self) -> None:
        self._arrived.set()
        self._arrived = asyncio.Event()

    def close(self) -> None:
        self.closed = True
        self._wake()

    def drop_pending(self) -> None:
        self._pending.clear()

    def confirm(self, update_id: int) -> None:
        """Forget every update up to and including ``update_id``."""
        self._pending = [u for u in self._pending if u["update_id"] > update_id]

    def _eligible(self) -> list[JsonDict]:
        if self.allowed_updates:
            allowed = set(self.allowed_updates)
            self._pending = [u for u in self._pending if update_type(u) in allowed]
        return list(self._pending)

    async def get_updates(
        self, *, offset: int, limit: int, timeout: float, allowed_updates: list[str] | None
    ) -> list[JsonDict]:
        if self.webhook_active:
            raise ApiError(409, WEBHOOK_CONFLICT)
        if allowed_updates is not None:
            self.allowed_updates = allowed_updates or None
        if offset > 0:
            self.confirm(offset - 1)
        elif offset < 0:
            self._pending = self._pending[offset:]
        self._poller += 1
        me = self._poller
        self._wake()  # an older long poll sees the newer one and ends with 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout)
        while True:
            if self.webhook_active:
                raise ApiError(409, WEBHOOK_CONFLICT)
            if me != self._poller:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            updates = self._eligible()
            remaining = deadline - loop.time()
            if updates or remaining <= 0 or self.closed:
                return updates[: max(1, min(limit, 100))]
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                continue

    async def next_update(self) -> JsonDict | None:
        """The oldest pending update, waiting for one (webhook delivery); None once closed."""
        while True:
            if self.closed:
                return None
            if updates := self._eligible():
                return updates[0]
            await self._arrived.wait()

    def wake(self) -> None:
        """Wake waiters without a new update (e.g. the webhook was removed)."""
        self._wake()
