"""/settings: language (RU/EN), time zone and reminders, by buttons (or
``/settings Area/City``); an argument it does not know is answered with the choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.callbacks import LangCb, RemindCb, TzCb
from bot.keyboards.settings import settings_keyboard
from bot.settings_choice import LanguageChoice, ZoneChoice, parse_choice, shown
from core.commands import Lang
from core.texts import Bot, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher
    from core.user_settings import UserSettingsView

__all__ = ["router"]


async def settings(
    message: Message,
    command: CommandObject,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    user_id = message.from_user.id if message.from_user else message.chat.id
    arg = command.args or ""
    choice = parse_choice(arg)
    if isinstance(choice, LanguageChoice):
        await manager.user_settings.set_language(user_id, choice.lang)
        sink.send_text(message.chat.id, tr(Bot.LANGUAGE_SET, choice.lang))
    elif isinstance(choice, ZoneChoice):
        zone = await manager.user_settings.set_timezone(user_id, choice.zone)
        sink.send_text(message.chat.id, tr(Bot.TIMEZONE_SET, lang, tz=zone or choice.zone))
    elif arg.strip():
        sink.send_text(message.chat.id, tr(Bot.SETTINGS_UNKNOWN, lang, arg=shown(arg)))
    current = await manager.user_settings.view(user_id)
    sink.send_text(message.chat.id, _body(current, lang), keyboard=_keyboard(current))


def _body(current: UserSettingsView, lang: Lang) -> str:
    reminders = Bot.REMINDERS_ON if current.reminders else Bot.REMINDERS_OFF
    return tr(
        Bot.SETTINGS, lang, language=current.language.upper(), timezone=current.timezone,
        reminders=tr(reminders, lang),
    )  # fmt: skip


def _keyboard(current: UserSettingsView) -> InlineKeyboardMarkup:
    return settings_keyboard(
        language=current.language, timezone=current.timezone, reminders=current.reminders
    )


async def _refresh(
    query: CallbackQuery, manager: ChatDispatcher, sink: TelegramSink, lang: Lang
) -> None:
    current = await manager.user_settings.view(query.from_user.id)
    if query.message is None:
        return
    chat_id, message_id = query.message.chat.id, query.message.message_id
    sink.edit_text(chat_id, message_id, _body(current, lang), keyboard=_keyboard(current))


async def on_language(
    query: CallbackQuery, callback_data: LangCb, manager: ChatDispatcher, sink: TelegramSink
) -> None:
    new: Lang = "en" if callback_data.lang == "en" else "ru"
    await manager.user_settings.set_language(query.from_user.id, new)
    await query.answer(tr(Bot.LANGUAGE_SET, new))
    await _refresh(query, manager, sink, new)


async def on_timezone(
    query: CallbackQuery,
    callback_data: TzCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    zone = await manager.user_settings.set_timezone(query.from_user.id, callback_data.tz)
    if zone is None:  # no button of ours says so: forged, or from an older list
        await query.answer(tr(Bot.UNKNOWN_TIMEZONE, lang), show_alert=True)
        return
    await query.answer(tr(Bot.TIMEZONE_SET, lang, tz=zone))
    await _refresh(query, manager, sink, lang)


async def on_reminders(
    query: CallbackQuery,
    callback_data: RemindCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    await manager.user_settings.set_reminders(query.from_user.id, callback_data.on)
    await query.answer(tr(Bot.REMINDERS_SET if callback_data.on else Bot.REMINDERS_UNSET, lang))
    await _refresh(query, manager, sink, lang)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.message.register(settings, Command("settings"))
    router.callback_query.register(on_language, LangCb.filter(F.lang.in_({"ru", "en"})))
    router.callback_query.register(on_timezone, TzCb.filter())
    router.callback_query.register(on_reminders, RemindCb.filter())
    return router
