"""Who may act on other members' requests in a chat: a group's creator or administrators
(Telegram knows them; the core only gets the answer)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Chat

__all__ = ["is_chat_admin"]

_ADMINS = frozenset({"creator", "administrator"})


async def is_chat_admin(bot: Bot, chat: Chat, user_id: int) -> bool:
    if chat.type == "private":  # nobody else's requests live there
        return False
    try:
        member = await bot.get_chat_member(chat.id, user_id)
    except TelegramAPIError:  # unknown to Telegram just now: no special rights
        return False
    return member.status in _ADMINS
