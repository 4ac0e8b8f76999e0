"""Per-chat order: a chat's updates reach the handlers one at a time, in arrival order,
while other chats go on in parallel (aiogram runs each update as its own task). The
order is the core's (``ChatDispatcher.chat_turn``): one mechanism for the view and the core."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.middlewares.context import update_chat_id

__all__ = ["ChatOrderMiddleware"]

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
ChatTurn = Callable[[int], AbstractAsyncContextManager[bool]]


class ChatOrderMiddleware(BaseMiddleware):
    def __init__(self, turn: ChatTurn) -> None:
        self._turn = turn

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        chat_id = update_chat_id(event) if isinstance(event, Update) else None
        if chat_id is None:
            return await handler(event, data)
        # No await before the turn is requested: tasks queue in the order they started.
        async with self._turn(chat_id):
            return await handler(event, data)
