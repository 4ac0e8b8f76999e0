"""Per-chat FIFO: a chat's updates reach the handlers one at a time, in arrival order,
while other chats go on in parallel (aiogram runs each update as its own task)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.middlewares.context import update_chat_id

__all__ = ["ChatOrderMiddleware"]

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class ChatOrderMiddleware(BaseMiddleware):
    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        chat_id = update_chat_id(event) if isinstance(event, Update) else None
        if chat_id is None:
            return await handler(event, data)
        # No await before the lock is requested: tasks queue in the order they started.
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._users[chat_id] = self._users.get(chat_id, 0) + 1
        try:
            async with lock:
                return await handler(event, data)
        finally:
            self._users[chat_id] -= 1
            if not self._users[chat_id]:
                del self._users[chat_id]
                del self._locks[chat_id]
