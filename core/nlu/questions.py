"""Clarifying questions, one per slot (their texts are ``core.texts.Ask``), and the one way
every job asks for a date: a few next days as buttons, or, when the command said its date
two ways that disagree («в среду 1 декабря», a Tuesday), both dates it could mean; and
for a time: a few usual starts, and ends a little after the start."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from core.nlu.decision import Lang, SlotName
from core.output import Option
from core.pause import QuestionSpec
from core.texts import Ask, Text, day_label, tr

__all__ = [
    "DATE_OPTIONS",
    "date_question",
    "disputed_dates",
    "end_question",
    "question_for",
    "start_question",
    "which_date",
]

# The slot a command's disputed dates are kept under until the date is asked (``Slots``).
DATE_OPTIONS = "date_options"
_NEXT_DAYS = 4  # the days offered when nothing was said
_STARTS = ("10:00", "14:00", "18:00")
_LENGTHS = (60, 90, 120)  # minutes after the start the end buttons offer

_QUESTIONS: dict[SlotName, Text] = {
    "date": Ask.DATE,
    "start": Ask.START,
    "end": Ask.END,
    "rooms": Ask.ROOMS,
    "adjacent": Ask.ADJACENT,
    "building": Ask.BUILDING,
    "room": Ask.ROOM,
    "capacity": Ask.CAPACITY,
    "recurrence": Ask.RECURRENCE,
}


def question_for(slot: SlotName, lang: Lang) -> str:
    """The question that asks for ``slot``; ``KeyError`` for an unknown slot name."""
    return tr(_QUESTIONS[slot], lang)


def which_date(options: Sequence[dt.date], lang: Lang) -> str:
    """«День недели и дата не совпадают: вт 01.12 или ср 02.12?»"""
    first, second = (day_label(day, lang) for day in options)
    return tr(Ask.WHICH_DATE, lang, first=first, second=second)


def disputed_dates(slots: Mapping[str, Any], today: dt.date) -> list[dt.date]:
    """The two dates a command's slots (JSON) dispute, while both are still ahead."""
    raw = slots.get(DATE_OPTIONS) or []
    days = [day if isinstance(day, dt.date) else dt.date.fromisoformat(str(day)) for day in raw]
    return days if len(days) == 2 and all(day >= today for day in days) else []


def date_question(
    slots: Mapping[str, Any], *, today: dt.date, lang: Lang, key: str = "date"
) -> QuestionSpec:
    """The date question with its buttons (ids: ISO dates), as every job asks it; ``key``:
    the slot the answer fills (a schedule takes its weekday from the date)."""
    disputed = disputed_dates(slots, today)
    if disputed:
        text = which_date(disputed, lang)
        days = disputed
    else:
        text = question_for("date", lang)
        days = [today + dt.timedelta(days=n) for n in range(_NEXT_DAYS)]
    options = [Option(id=day.isoformat(), label=day_label(day, lang)) for day in days]
    return QuestionSpec(key=key, text=text, options=options)


def start_question(*, lang: Lang) -> QuestionSpec:
    """The start question with a few usual starts as buttons (ids: «HH:MM»)."""
    options = [Option(id=t, label=t) for t in _STARTS]
    return QuestionSpec(key="start", text=question_for("start", lang), options=options)


def end_question(slots: Mapping[str, Any], *, lang: Lang) -> QuestionSpec:
    """The end question with ends an hour, an hour and a half and two after the start as
    buttons (the ones still on its day; ids: «HH:MM»), none while the start is unknown."""
    options: list[Option] = []
    if "start" in slots:
        start = dt.time.fromisoformat(str(slots["start"]))
        moment = dt.datetime.combine(dt.date.min, start)
        ends = [(moment + dt.timedelta(minutes=m)).time() for m in _LENGTHS]
        options = [Option(id=f"{e:%H:%M}", label=f"{e:%H:%M}") for e in ends if e > start]
    return QuestionSpec(key="end", text=question_for("end", lang), options=options)
