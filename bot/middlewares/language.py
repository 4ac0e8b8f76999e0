"""The user's language (``lang`` in the handler data) is theirs as the core keeps it,
sticky across commands, numbers and taps (``core.language``), not their client's. Read
inside the chat's turn, so it follows what their previous message taught."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update, User

from core.commands import Lang

__all__ = ["LanguageMiddleware"]

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class UserLanguage(Protocol):
    """``ChatDispatcher.language``: the user's language, a new user's being their client's."""

    async def __call__(
        self, user_id: int, *, client: Lang | None, name: str = "", text: str = ""
    ) -> Lang: ...


class LanguageMiddleware(BaseMiddleware):
    def __init__(self, language: UserLanguage) -> None:
        self._language = language

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = data.get("event_from_user")
        if user is not None:
            message = event.message if isinstance(event, Update) else None
            text = (message.text or message.caption or "") if message is not None else ""
            data["lang"] = await self._language(
                user.id, client=data["lang"], name=user.first_name, text=text
            )
        return await handler(event, data)
