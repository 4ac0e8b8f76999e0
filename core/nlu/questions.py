"""Clarifying questions, one per slot (their texts are ``core.texts.Ask``), and the one way
every job asks for a date: a few next days as buttons, or, when the command said its date
two ways that disagree («в среду 1 декабря», a Tuesday), both dates it could mean."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from core.nlu.decision import Lang, SlotName
from core.output import Option
from core.pause import QuestionSpec
from core.texts import Ask, Text, day_label, tr

__all__ = ["DATE_OPTIONS", "date_question", "disputed_dates", "question_for", "which_date"]

# The slot a command's disputed dates are kept under until the date is asked (``Slots``).
DATE_OPTIONS = "date_options"
_NEXT_DAYS = 4  # the days offered when nothing was said

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
