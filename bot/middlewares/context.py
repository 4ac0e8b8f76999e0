"""Binds update id, chat id and user id into structlog's contextvars for the update's task,
and puts the user's language (``lang``) into the handler data."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update, User

from bot.language import lang_of

__all__ = ["ContextMiddleware", "update_chat_id"]

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


def update_chat_id(update: Update) -> int | None:
    message = update.message or update.edited_message
    if message is not None:
        return message.chat.id
    if update.callback_query is not None and update.callback_query.message is not None:
        return update.callback_query.message.chat.id
    return None


class ContextMiddleware(BaseMiddleware):
    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = data.get("event_from_user")
        data["lang"] = lang_of(user.language_code if user else None)
        ids: dict[str, Any] = {"user_id": user.id if user else None}
        if isinstance(event, Update):
            ids["update_id"] = event.update_id
            ids["chat_id"] = update_chat_id(event)
        with structlog.contextvars.bound_contextvars(**ids):
            return await handler(event, data)
