"""The registered jobs' own commands (/bookings, /schedules: ``Shortcut``): each names one
of its job's intents, so the text is not classified."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.handlers.common import to_command
from core.commands import Lang
from core.scenario import Shortcut

if TYPE_CHECKING:
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


def router(shortcuts: Sequence[Shortcut]) -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    intents = {shortcut.command: shortcut.intent for shortcut in shortcuts}

    async def shortcut(
        message: Message, command: CommandObject, manager: ChatDispatcher, lang: Lang, bot: Bot
    ) -> None:
        intent = intents[command.command]
        await manager.handle(await to_command(message, lang, bot, intent=intent))

    router = Router(name=__name__)
    if intents:
        router.message.register(shortcut, Command(*intents))
    return router
