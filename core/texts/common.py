"""Words many places share (answer buttons, step names), and dates as people read them."""

from __future__ import annotations

import datetime as dt

from core.commands import Lang
from core.texts.base import Text, tr

__all__ = ["DAY", "WEEKDAYS", "Common", "day_label"]


class Common:
    YES = Text("Да", "Yes")
    NO = Text("Нет", "No")
    CANCEL = Text("Отмена", "Cancel")
    CONFIRMATION = Text("Подтверждение", "Confirmation")
    TOO_LONG = Text(
        "Сообщение слишком длинное ({length} знаков): напишите короче, до {limit}.",
        "That message is too long ({length} characters): please keep it under {limit}.",
    )


# Short weekday names, Monday first (``date.weekday()`` indexes it).
WEEKDAYS: tuple[Text, ...] = (
    Text("пн", "Mon"),
    Text("вт", "Tue"),
    Text("ср", "Wed"),
    Text("чт", "Thu"),
    Text("пт", "Fri"),
    Text("сб", "Sat"),
    Text("вс", "Sun"),
)

# «чт 27.11» / "Thu 27 Nov": ``weekday`` is a ``WEEKDAYS`` name, ``day`` a date.
DAY = Text("{weekday} {day:%d.%m}", "{weekday} {day:%d %b}")


def day_label(day: dt.date, lang: Lang) -> str:
    """«чт 27.11» / "Thu 27 Nov"."""
    return tr(DAY, lang, weekday=tr(WEEKDAYS[day.weekday()], lang), day=day)
