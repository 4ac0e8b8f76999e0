"""Any other text goes to the core: a new command, or the answer to a waiting question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import F, Router
from aiogram.types import Message

from bot.handlers.common import to_command
from core.commands import Lang

if TYPE_CHECKING:
    from core.manager import NLUManager

__all__ = ["router"]


async def text(message: Message, manager: NLUManager, lang: Lang) -> None:
    await manager.handle(to_command(message, lang))


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(text, F.text)
    return router
