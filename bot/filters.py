"""Message filters as coroutines.

Not magic ``F`` filters or bare ``State``s: aiogram 3.31 runs a plain callable in a worker
thread (``asyncio.to_thread``), a thread hop per filter on every message.
"""

from __future__ import annotations

from aiogram.types import Message

__all__ = ["has_text", "is_plain_text", "no_text"]


async def has_text(message: Message) -> bool:
    return message.text is not None


async def is_plain_text(message: Message) -> bool:
    """Text that is not a slash command."""
    return message.text is not None and not message.text.startswith("/")


async def no_text(message: Message) -> bool:
    return message.text is None
