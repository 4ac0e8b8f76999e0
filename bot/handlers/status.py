"""/status: the chat's active and waiting runs with their progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.render import status_text
from core.commands import Lang

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def status(message: Message, manager: ChatDispatcher, sink: TelegramSink, lang: Lang) -> None:
    runs = await manager.control.status(message.chat.id)
    sink.send_text(message.chat.id, status_text(runs, lang))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(status, Command("status"))
    return router
