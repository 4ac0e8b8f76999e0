"""The Bot API session: aiogram's aiohttp session, with its response models kept alive
and JSON request bodies.

aiogram parses every reply as ``Response[T]``, a pydantic generic model built on first
use. Pydantic caches such models only weakly, so after a garbage collection the next
call rebuilds one (about 10 ms of schema work). Under load that happened every few
hundred calls; holding a strong reference for each method we call keeps them cached.

aiogram sends every request as an urlencoded form, percent-encoding the text byte by
byte in Python: for a reply in Cyrillic that is about three times its size and the
costliest step of sending it. The Bot API takes ``application/json`` for every method
without a file upload, so those go as JSON (encoded in C); uploads stay multipart.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiogram import methods
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods.base import Response, TelegramType
from aiohttp import FormData, JsonPayload

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

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

    def build_form_data(  # type: ignore[override]
        self, bot: Bot, method: TelegramMethod[TelegramType]
    ) -> FormData | JsonPayload:
        """The body aiogram's ``make_request`` posts: JSON unless the method uploads a file.

        (aiogram passes it on as aiohttp's ``data=``, which takes any payload; only the
        annotation says ``FormData``.)"""
        files: dict[str, Any] = {}
        # As aiogram's form does: Default placeholders resolved, empty values left out.
        payload = {
            key: prepared
            for key, value in method.model_dump(warnings=False).items()
            if (prepared := self.prepare_value(value, bot=bot, files=files, _dumps_json=False))
        }
        if files:
            return super().build_form_data(bot, method)
        return JsonPayload(payload, dumps=_dumps)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
