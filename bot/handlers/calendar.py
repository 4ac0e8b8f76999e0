"""«📅 В календарь» under a booking's (or /bookings') answer: the bookings as an ``.ics``
file, built from the stored run when tapped, so the button works after a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.callbacks import CalendarCb
from core.commands import Lang
from core.texts import Bot, Calendar, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["router"]


async def on_calendar(
    query: CallbackQuery,
    callback_data: CalendarCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    chat_id = query.message.chat.id if query.message else query.from_user.id
    found = await manager.control.calendar_file(callback_data.run, chat_id=chat_id)
    if found is None:
        await query.answer(tr(Bot.UNKNOWN_BUTTON, lang))
        return
    sink.send_document(
        chat_id, found.content, filename=found.filename, caption=tr(Calendar.FILE, lang)
    )
    await query.answer()


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.callback_query.register(on_calendar, CalendarCb.filter())
    return router
