"""The /settings keyboard: language, reminders and a few common time zones."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import LangCb, RemindCb, TzCb
from core.commands import Lang
from core.texts import Bot, tr

__all__ = ["TIMEZONES", "settings_keyboard"]

# Russia's zones first (the clubs' home), then UTC; any other zone: /settings Area/City.
TIMEZONES: tuple[str, ...] = (
    "Europe/Kaliningrad",
    "Europe/Moscow",
    "Europe/Samara",
    "Asia/Yekaterinburg",
    "Asia/Omsk",
    "Asia/Novosibirsk",
    "Asia/Krasnoyarsk",
    "Asia/Irkutsk",
    "Asia/Vladivostok",
    "UTC",
)


def _mark(text: str, chosen: bool) -> str:
    return f"• {text}" if chosen else text


def settings_keyboard(*, language: Lang, timezone: str, reminders: bool) -> InlineKeyboardMarkup:
    remind = InlineKeyboardButton(
        text=_mark(tr(Bot.REMIND_BUTTON, language), reminders),
        callback_data=RemindCb(on=not reminders).pack(),  # a tap switches it
    )
    rows = [
        [
            InlineKeyboardButton(
                text=_mark("Русский", language == "ru"), callback_data=LangCb(lang="ru").pack()
            ),
            InlineKeyboardButton(
                text=_mark("English", language == "en"), callback_data=LangCb(lang="en").pack()
            ),
        ],
        [remind],
    ]
    zones = [
        InlineKeyboardButton(
            text=_mark(zone.rsplit("/", 1)[-1].replace("_", " "), zone == timezone),
            callback_data=TzCb(tz=zone).pack(),
        )
        for zone in TIMEZONES
    ]
    rows.extend(zones[i : i + 2] for i in range(0, len(zones), 2))
    return InlineKeyboardMarkup(inline_keyboard=rows)
