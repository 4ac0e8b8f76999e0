"""What handlers share: turning a Telegram message into the core's ``Command``."""

from __future__ import annotations

from aiogram.types import Message

from core.commands import Command, Lang

__all__ = ["to_command"]


def to_command(message: Message, lang: Lang, *, intent: str | None = None) -> Command:
    user = message.from_user
    return Command(
        chat_id=message.chat.id,
        user_id=user.id if user else message.chat.id,
        text=message.text or message.caption or "",  # a photo's caption is its text
        lang=lang,
        user_name=user.first_name if user else "",
        intent=intent,
    )
