"""/start: a greeting in the user's language, with examples."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.filters import CommandStart
from aiogram.types import Message

from core.commands import Lang

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def start(message: Message, manager: ChatDispatcher, sink: TelegramSink, lang: Lang) -> None:
    name = message.from_user.first_name if message.from_user else ""
    sink.send_text(message.chat.id, manager.greeting(lang, name))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(start, CommandStart())
    return router
