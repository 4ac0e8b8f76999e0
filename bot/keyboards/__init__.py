"""Inline keyboards as pure functions of what they show."""

from bot.keyboards.question import question_keyboard
from bot.keyboards.settings import TIMEZONES, settings_keyboard

__all__ = ["TIMEZONES", "question_keyboard", "settings_keyboard"]
