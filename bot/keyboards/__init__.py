"""Inline keyboards as pure functions of what they show."""

from bot.keyboards.calendar import calendar_keyboard
from bot.keyboards.login import login_keyboard
from bot.keyboards.question import question_keyboard
from bot.keyboards.settings import TIMEZONES, settings_keyboard

__all__ = [
    "TIMEZONES",
    "calendar_keyboard",
    "login_keyboard",
    "question_keyboard",
    "settings_keyboard",
]
