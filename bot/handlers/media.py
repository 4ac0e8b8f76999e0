"""What is not text: a photo's or file's caption is read as text; anything else (a
sticker, a voice message, a file without caption) gets a short "I understand text"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.types import Message

from bot.filters import has_caption, is_media
from bot.handlers.new_command import submit
from core.commands import Lang
from core.texts import Bot, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink

__all__ = ["router"]


async def not_text(message: Message, sink: TelegramSink, lang: Lang) -> None:
    sink.send_text(message.chat.id, tr(Bot.TEXT_ONLY, lang))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(submit, has_caption)
    router.message.register(not_text, is_media)
    return router
