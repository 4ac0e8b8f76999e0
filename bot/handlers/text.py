"""Any other text goes to the core: a new command, or the answer to a waiting question."""

from __future__ import annotations

from aiogram import Router

from bot.filters import has_text, is_plain_text
from bot.handlers.new_command import submit

__all__ = ["fallback_router", "router"]


def router() -> Router:
    """Plain text (most updates): tried first, so it skips the command routers."""
    router = Router(name=__name__)
    router.message.register(submit, is_plain_text)
    return router


def fallback_router() -> Router:
    """Slash commands no other router took ("/foo"): the core answers those too."""
    router = Router(name=f"{__name__}.fallback")
    router.message.register(submit, has_text)
    return router
