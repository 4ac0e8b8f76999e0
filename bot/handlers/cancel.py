"""/cancel: cancel the chat's active runs the user may cancel (the core replies)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.chat_admin import is_chat_admin

if TYPE_CHECKING:
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def cancel(message: Message, manager: ChatDispatcher, bot: Bot) -> None:
    """In a group, members cancel their own requests; its administrators, anyone's."""
    user_id = message.from_user.id if message.from_user else message.chat.id
    admin = await is_chat_admin(bot, message.chat, user_id)
    await manager.control.cancel(chat_id=message.chat.id, user_id=user_id, admin=admin)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(cancel, Command("cancel"))
    return router
