"""What handlers share: turning a Telegram message into the core's ``Command``."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import Message

from bot.chat_admin import is_chat_admin
from core.commands import MAX_TEXT, Command, Lang, too_long
from core.errors import InputError
from core.texts import Common, tr

__all__ = ["to_command"]


async def to_command(
    message: Message, lang: Lang, bot: Bot, *, intent: str | None = None
) -> Command:
    """The message as the core's command; in a group, whether its sender administers it
    (they may then list and cancel the members' bookings). A text over Telegram's own limit
    (a forged update) is refused in the user's language."""
    user = message.from_user
    user_id = user.id if user else message.chat.id
    text = message.text or message.caption or ""  # a photo's caption is its text
    if too_long(text):
        raise InputError(tr(Common.TOO_LONG, lang, length=len(text), limit=MAX_TEXT))
    return Command(
        chat_id=message.chat.id,
        user_id=user_id,
        text=text,
        lang=lang,
        user_name=user.first_name if user else "",
        intent=intent,
        admin=await is_chat_admin(bot, message.chat, user_id),
    )
