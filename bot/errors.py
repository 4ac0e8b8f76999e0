"""The one error router: the core's errors become a polite message with what to do next;
anything unexpected is logged with its context and the user gets an apology."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import structlog
from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent, Update, User

from bot.language import lang_of
from bot.middlewares.context import update_chat_id
from bot.render import error_text
from core.errors import ClubError, StorageError
from core.texts import Run, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink

__all__ = ["router"]

log = structlog.get_logger("clubman.bot.errors")


def _user(update: Update) -> User | None:
    message = update.message or update.edited_message
    if message is not None:
        return message.from_user
    if update.callback_query is not None:
        return update.callback_query.from_user
    return None


def _run_id(update: Update) -> str | None:
    data = update.callback_query.data if update.callback_query is not None else None
    if data and data[:2] in ("a:", "o:", "x:"):
        return data.split(":")[1]
    bound = structlog.contextvars.get_contextvars().get("run_id")
    return str(bound) if bound else None


async def on_error(event: ErrorEvent, sink: TelegramSink) -> None:
    update = event.update
    exc = event.exception
    chat_id = update_chat_id(update)
    user = _user(update)
    lang = lang_of(user.language_code if user else None)
    context = {"update_id": update.update_id, "chat_id": chat_id, "run_id": _run_id(update)}
    if isinstance(exc, StorageError):
        # Ours to fix, not the user's: no settings or internals in their chat.
        log.warning("bot.storage_error", error=type(exc).__name__, message=exc.message, **context)
        body = tr(Run.TEMPORARILY_DOWN, lang)
    elif isinstance(exc, ClubError):
        log.info("bot.club_error", error=type(exc).__name__, message=exc.message, **context)
        body = error_text(exc.message, exc.hint, lang)
    else:
        log.error("bot.unexpected_error", exc_info=exc, **context)
        body = tr(Run.APOLOGY, lang)
    if update.callback_query is not None:
        with contextlib.suppress(TelegramAPIError):  # already answered, or too old
            await update.callback_query.answer()
    if chat_id is not None:
        sink.send_text(chat_id, body)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.errors.register(on_error)
    return router
