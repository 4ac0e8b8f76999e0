"""«Начать новое?»: a new command arrived while a question waits."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import NewCommandCb
from core.commands import Lang
from core.texts import Bot, tr

__all__ = ["new_command_keyboard"]


def new_command_keyboard(run_id: str, lang: Lang) -> InlineKeyboardMarkup:
    yes = NewCommandCb(run=run_id, new=True).pack()
    no = NewCommandCb(run=run_id, new=False).pack()
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=tr(Bot.NEW_COMMAND_YES, lang), callback_data=yes)],
            [InlineKeyboardButton(text=tr(Bot.NEW_COMMAND_NO, lang), callback_data=no)],
        ]
    )
