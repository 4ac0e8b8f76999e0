"""/bookings and /schedules: explicit intents, no text classification."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.common import to_command
from core.commands import Lang

if TYPE_CHECKING:
    from core.manager import NLUManager

__all__ = ["router"]


LIST_BOOKINGS = "list_bookings"
LIST_SCHEDULES = "list_schedules"


async def bookings(message: Message, manager: NLUManager, lang: Lang, bot: Bot) -> None:
    await manager.handle(await to_command(message, lang, bot, intent=LIST_BOOKINGS))


async def schedules(message: Message, manager: NLUManager, lang: Lang, bot: Bot) -> None:
    await manager.handle(await to_command(message, lang, bot, intent=LIST_SCHEDULES))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(bookings, Command("bookings"))
    router.message.register(schedules, Command("schedules"))
    return router
