"""Every update is handled once: Telegram redelivers a webhook update it got no 2xx for in
time, and a process that dies between handling an update and confirming its offset gets
it again when polling resumes. The first delivery claims the ``update_id`` in storage
(kept two days: Telegram keeps an update for one), per bot, since bots may share a Redis;
a later one is acknowledged and dropped.

It runs inside the chat's turn (after ``ChatOrderMiddleware``): awaiting storage before
the turn is requested would let a chat's updates overtake each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

__all__ = ["UpdateOnceMiddleware"]

log = structlog.get_logger("clubman.bot.once")

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
# True for the first caller with this key within the retention (``Claims.claim``).
Claim = Callable[[str], Awaitable[bool]]


class UpdateOnceMiddleware(BaseMiddleware):
    def __init__(self, first: Claim) -> None:
        self._first = first

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        bot = data.get("bot")
        if not await self._first(f"update:{bot.id if bot is not None else 0}:{event.update_id}"):
            log.info("update.duplicate", update_id=event.update_id)
            if event.callback_query is not None:  # stop the client's spinner, nothing else
                await event.callback_query.answer()
            return None
        return await handler(event, data)
