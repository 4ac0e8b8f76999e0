"""Message filters as coroutines.

Not magic ``F`` filters or bare ``State``s: aiogram 3.31 runs a plain callable in a worker
thread (``asyncio.to_thread``), a thread hop per filter on every message.
"""

from __future__ import annotations

from aiogram.enums import ContentType
from aiogram.types import Message

__all__ = ["MEDIA_TYPES", "has_caption", "has_text", "is_media", "is_plain_text", "no_text"]

# What a user sends instead of text. Service messages (a member joined, a pin) are not
# among them: those are the chat's events, not something said to the bot.
MEDIA_TYPES = frozenset(
    {
        ContentType.ANIMATION,
        ContentType.AUDIO,
        ContentType.CONTACT,
        ContentType.DOCUMENT,
        ContentType.LOCATION,
        ContentType.PHOTO,
        ContentType.POLL,
        ContentType.STICKER,
        ContentType.VENUE,
        ContentType.VIDEO,
        ContentType.VIDEO_NOTE,
        ContentType.VOICE,
    }
)


async def has_text(message: Message) -> bool:
    return message.text is not None


async def is_plain_text(message: Message) -> bool:
    """Text that is not a slash command."""
    return message.text is not None and not message.text.startswith("/")


async def no_text(message: Message) -> bool:
    return message.text is None


async def has_caption(message: Message) -> bool:
    """A photo or file with a caption: the caption is read as the message's text."""
    return message.text is None and bool(message.caption and message.caption.strip())


async def is_media(message: Message) -> bool:
    return message.content_type in MEDIA_TYPES
