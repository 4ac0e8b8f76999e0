"""The Bot API session: aiogram's aiohttp session with its response models kept alive.

aiogram parses every reply as ``Response[T]``, a pydantic generic model built on first
use. Pydantic caches such models only weakly, so after a garbage collection the next
call rebuilds one (about 10 ms of schema work). Under load that happened every few
hundred calls; holding a strong reference for each method we call keeps them cached.
"""

from __future__ import annotations

from typing import Any

from aiogram import methods
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods.base import Response

__all__ = ["USED_METHODS", "BotSession"]

USED_METHODS: tuple[type[methods.TelegramMethod[Any]], ...] = (
    methods.GetMe,
    methods.GetUpdates,
    methods.SetWebhook,
    methods.DeleteWebhook,
    methods.SetMyCommands,
    methods.SendMessage,
    methods.SendPhoto,
    methods.EditMessageText,
    methods.EditMessageReplyMarkup,
    methods.DeleteMessage,
    methods.AnswerCallbackQuery,
    methods.SendChatAction,
)


class BotSession(AiohttpSession):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._response_models = tuple(
            Response[method.__returning__]  # type: ignore[name-defined]
            for method in USED_METHODS
        )
