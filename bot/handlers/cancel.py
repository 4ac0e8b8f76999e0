"""/cancel: cancel the chat's active runs (the core replies)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

if TYPE_CHECKING:
    from core.manager import NLUManager

__all__ = ["router"]


async def cancel(message: Message, manager: NLUManager) -> None:
    user_id = message.from_user.id if message.from_user else message.chat.id
    await manager.cancel(chat_id=message.chat.id, user_id=user_id)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(cancel, Command("cancel"))
    return router
