"""Typed callback data. Everything a button needs travels in it, so buttons keep working
after a restart with no in-memory state: ``a:<run>:<seq>:<option>`` is at most 64 bytes
for run ids up to 10 characters and option ids up to 24."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

__all__ = [
    "AnswerCb",
    "CalendarCb",
    "CancelCb",
    "LangCb",
    "LoginCb",
    "NewCommandCb",
    "OtherCb",
    "RemindCb",
    "TzCb",
]


class AnswerCb(CallbackData, prefix="a"):
    """An option tapped: run id, question number (``None`` when it would not fit), option id."""

    run: str
    seq: int | None = None
    opt: str


class OtherCb(CallbackData, prefix="o"):
    """«Другое…»: the user will type the answer."""

    run: str
    seq: int | None = None


class CancelCb(CallbackData, prefix="x"):
    """«Отмена» under a question: cancel that run."""

    run: str


class LangCb(CallbackData, prefix="l"):
    lang: str


class TzCb(CallbackData, prefix="t"):
    tz: str


class RemindCb(CallbackData, prefix="r"):
    """/settings: reminders an hour before each booking on (``on``) or off."""

    on: bool


class LoginCb(CallbackData, prefix="lg"):
    """A button of the /login dialogue (only «Отмена» for now)."""

    action: str


class NewCommandCb(CallbackData, prefix="n"):
    """«Начать новое?» while run ``run`` waits: start the new command (``new``) or not."""

    run: str
    new: bool


class CalendarCb(CallbackData, prefix="c"):
    """«📅 В календарь» under a final answer: the bookings of run ``run`` as an .ics file."""

    run: str
