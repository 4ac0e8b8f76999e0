"""/help: what the bot can do, and how to book in one's own portal name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from core.commands import Lang
from core.texts import Login, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def help_(message: Message, manager: ChatDispatcher, sink: TelegramSink, lang: Lang) -> None:
    # /login is the Telegram view's own command: the core's help does not know it.
    sink.send_text(message.chat.id, f"{manager.help_text(lang)}\n\n{tr(Login.HELP, lang)}")


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(help_, Command("help"))
    return router
