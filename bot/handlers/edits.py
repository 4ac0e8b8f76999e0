"""Edited messages: a correction while the chat's newest request still collects its
details (the core decides, ``ChatDispatcher.correct``); otherwise a short notice that the
edit was not applied. Telegram sends edits of any age, so silence would look like
the edit had worked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Bot as TelegramBot
from aiogram import Router
from aiogram.types import Message

from bot.handlers.common import to_command
from core.commands import Lang
from core.texts import Bot, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def edited(
    message: Message, manager: ChatDispatcher, sink: TelegramSink, lang: Lang, bot: TelegramBot
) -> None:
    command = await to_command(message, lang, bot)
    if not command.text.strip():
        sink.send_text(message.chat.id, tr(Bot.TEXT_ONLY, lang))
    elif not await manager.correct(command):
        sink.send_text(message.chat.id, tr(Bot.EDIT_TOO_LATE, lang))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.edited_message.register(edited)
    return router
