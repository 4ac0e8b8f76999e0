"""Only allowed users get through. Anyone else gets one polite refusal, then silence; an
update with no sender gets nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import Any

import structlog
from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update, User

from bot.language import lang_of
from core.texts import Bot, tr

__all__ = ["AccessMiddleware", "RefuseOnce", "Refuse"]

log = structlog.get_logger("clubman.bot.access")

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
# True the first time it is called for a user id (the refusal is sent only then).
RefuseOnce = Callable[[int], Awaitable[bool]]
# Sends the refusal text to a chat.
Refuse = Callable[[int, str], object]


class AccessMiddleware(BaseMiddleware):
    def __init__(
        self,
        *,
        allowed: Collection[int],
        allow_all: bool,
        first_refusal: RefuseOnce,
        refuse: Refuse,
    ) -> None:
        self._allowed = frozenset(allowed)
        self._allow_all = allow_all
        self._first_refusal = first_refusal
        self._refuse = refuse

    def allows(self, user_id: int) -> bool:
        return self._allow_all or user_id in self._allowed

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = data.get("event_from_user")
        if user is None:  # no sender (a channel post, a poll): nobody the list allows
            log.info("access.no_sender")
            return None
        if self.allows(user.id):
            return await handler(event, data)
        log.info("access.refused", user_id=user.id)
        if not isinstance(event, Update):
            return None
        if event.callback_query is not None:
            await event.callback_query.answer()  # stop the client's spinner; nothing else
            return None
        if event.message is not None and await self._first_refusal(user.id):
            lang = lang_of(user.language_code)
            self._refuse(event.message.chat.id, tr(Bot.REFUSAL, lang, user_id=user.id))
        return None
