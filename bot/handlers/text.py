"""Any other text goes to the core: a new command, or the answer to a waiting question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Bot as TelegramBot
from aiogram import Router
from aiogram.fsm.context import FSMContext
from aiogram.types import Message

from bot.filters import has_text, is_plain_text
from bot.handlers.new_command import submit
from core.commands import Lang

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.manager import NLUManager

__all__ = ["fallback_router", "router"]


async def text(
    message: Message,
    manager: NLUManager,
    state: FSMContext,
    sink: TelegramSink,
    lang: Lang,
    bot: TelegramBot,
) -> None:
    await submit(message, manager, state, sink, lang, bot)


def router() -> Router:
    """Plain text (most updates): tried first, so it skips the command routers."""
    router = Router(name=__name__)
    router.message.register(text, is_plain_text)
    return router


def fallback_router() -> Router:
    """Slash commands no other router took ("/foo"): the core answers those too."""
    router = Router(name=f"{__name__}.fallback")
    router.message.register(text, has_text)
    return router
