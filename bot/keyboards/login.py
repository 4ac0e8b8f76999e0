"""The /login dialogue's keyboard: «Отмена» under each question."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import LoginCb
from core.commands import Lang
from core.texts import Common, tr

__all__ = ["LOGIN_CANCEL", "login_keyboard"]

LOGIN_CANCEL = "cancel"


def login_keyboard(lang: Lang) -> InlineKeyboardMarkup:
    cancel = LoginCb(action=LOGIN_CANCEL).pack()
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=tr(Common.CANCEL, lang), callback_data=cancel)]]
    )
