"""A bare aiogram echo bot: replies to every text message with the same text."""

from __future__ import annotations

from aiogram import Bot, Dispatcher, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import CallbackQuery, Message

__all__ = ["echo_bot", "echo_dispatcher"]


def echo_dispatcher() -> Dispatcher:
    """Text messages are echoed; a tapped callback button is answered with its data."""
    router = Router(name=__name__)

    @router.message()
    async def echo(message: Message) -> None:
        if message.text is not None:
            await message.answer(message.text)

    @router.callback_query()
    async def answer(query: CallbackQuery) -> None:
        await query.answer(query.data)

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    return dispatcher


def echo_bot(token: str, api_base: str) -> Bot:
    """An aiogram ``Bot`` talking to the server at ``api_base`` (e.g. ``FakeTelegram.api_base``)."""
    return Bot(token, session=AiohttpSession(api=TelegramAPIServer.from_base(api_base)))
