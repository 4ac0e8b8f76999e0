"""/settings: language (RU/EN) and time zone, by buttons or ``/settings Area/City``; an
argument it does not know is answered with the choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import LangCb, TzCb
from bot.keyboards.settings import settings_keyboard
from bot.settings_choice import LanguageChoice, ZoneChoice, parse_choice, shown
from core.commands import Lang
from core.texts import Bot, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.manager import NLUManager

__all__ = ["router"]


async def settings(
    message: Message, command: CommandObject, manager: NLUManager, sink: TelegramSink, lang: Lang
) -> None:
    user_id = message.from_user.id if message.from_user else message.chat.id
    arg = command.args or ""
    choice = parse_choice(arg)
    if isinstance(choice, LanguageChoice):
        await manager.set_language(user_id, choice.lang)
        sink.send_text(message.chat.id, tr(Bot.LANGUAGE_SET, choice.lang))
    elif isinstance(choice, ZoneChoice):
        await manager.set_timezone(user_id, choice.zone)
        sink.send_text(message.chat.id, tr(Bot.TIMEZONE_SET, lang, tz=choice.zone))
    elif arg.strip():
        sink.send_text(message.chat.id, tr(Bot.SETTINGS_UNKNOWN, lang, arg=shown(arg)))
    current = await manager.user_settings(user_id)
    body = tr(Bot.SETTINGS, lang, language=current.language.upper(), timezone=current.timezone)
    keyboard = settings_keyboard(language=current.language, timezone=current.timezone)
    sink.send_text(message.chat.id, body, keyboard=keyboard)


async def _refresh(
    query: CallbackQuery, manager: NLUManager, sink: TelegramSink, lang: Lang
) -> None:
    current = await manager.user_settings(query.from_user.id)
    if query.message is None:
        return
    chat_id, message_id = query.message.chat.id, query.message.message_id
    body = tr(Bot.SETTINGS, lang, language=current.language.upper(), timezone=current.timezone)
    keyboard = settings_keyboard(language=current.language, timezone=current.timezone)
    sink.edit_text(chat_id, message_id, body, keyboard=keyboard)


async def on_language(
    query: CallbackQuery, callback_data: LangCb, manager: NLUManager, sink: TelegramSink
) -> None:
    new: Lang = "en" if callback_data.lang == "en" else "ru"
    await manager.set_language(query.from_user.id, new)
    await query.answer(tr(Bot.LANGUAGE_SET, new))
    await _refresh(query, manager, sink, new)


async def on_timezone(
    query: CallbackQuery, callback_data: TzCb, manager: NLUManager, sink: TelegramSink, lang: Lang
) -> None:
    await manager.set_timezone(query.from_user.id, callback_data.tz)
    await query.answer(tr(Bot.TIMEZONE_SET, lang, tz=callback_data.tz))
    await _refresh(query, manager, sink, lang)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(settings, Command("settings"))
    router.callback_query.register(on_language, LangCb.filter(F.lang.in_({"ru", "en"})))
    router.callback_query.register(on_timezone, TzCb.filter())
    return router
