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
from typing import TYPE_CHECKING, Any, cast

from aiogram import methods
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods.base import Response, TelegramType
from aiohttp import ClientError, ClientTimeout

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

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        files: dict[str, Any] = {}
        # As aiogram's form does: Default placeholders resolved, empty values left out.
        payload = {
            key: prepared
            for key, value in method.model_dump(warnings=False).items()
            if (prepared := self.prepare_value(value, bot=bot, files=files, _dumps_json=False))
        }
        if files:
            return await super().make_request(bot, method, timeout)
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=json.dumps(payload, ensure_ascii=False).encode(),
                headers={"Content-Type": "application/json"},
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                raw_result = await resp.text()
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        response = self.check_response(
            bot=bot, method=method, status_code=resp.status, content=raw_result
        )
        return cast(TelegramType, response.result)
