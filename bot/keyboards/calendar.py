"""The button under a final answer that offers its bookings as a calendar file."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import CalendarCb
from core.commands import Lang
from core.texts import Calendar, tr

__all__ = ["calendar_keyboard"]


def calendar_keyboard(run_id: str, lang: Lang) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(
        text=tr(Calendar.OFFER, lang), callback_data=CalendarCb(run=run_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])
