"""The Bot API session: response models kept alive, JSON bodies, uploads as multipart."""

from __future__ import annotations

import gc
import weakref

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods.base import Response
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.session import BotSession
from tests.fakes.telegram import FakeTelegram


async def test_response_models_survive_garbage_collection_regression() -> None:
    # The bug: pydantic caches Response[Message] weakly, so aiogram rebuilt it (~10 ms)
    # after every collection; the session now holds one per method it uses.
    session = BotSession()
    try:
        model = weakref.ref(Response[Message])
        gc.collect()
        assert model() is not None
        assert model() is Response[Message]
    finally:
        await session.close()


async def test_requests_go_as_json_and_uploads_as_multipart() -> None:
    async with FakeTelegram() as tg:
        user = tg.user(7)
        bot = Bot(tg.token, session=BotSession(api=TelegramAPIServer.from_base(tg.api_base)))
        try:
            keyboard = InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Да", callback_data="r:1:yes")]]
            )
            await bot.send_message(7, "Забронировать «Ауд. 301»?", reply_markup=keyboard)
            await bot.send_photo(7, BufferedInputFile(b"\x89PNG...", filename="plan.png"))
            with pytest.raises(TelegramBadRequest, match="message to edit not found"):
                await bot.edit_message_text("нет", chat_id=7, message_id=999)
        finally:
            await bot.session.close()

    sent, photo, edit = (c for c in tg.state.calls if c.method.lower() != "getme")
    assert sent.content_type == "application/json"
    assert sent.params["text"] == "Забронировать «Ауд. 301»?"
    assert sent.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "r:1:yes"
    assert user.messages[0].labels == ["Да"]
    assert photo.content_type == "multipart/form-data"
    assert user.messages[1].photo
    assert edit.content_type == "application/json" and not edit.ok
