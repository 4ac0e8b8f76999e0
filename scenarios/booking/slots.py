"""The booking slot model and the rules a request must meet before the portal is asked."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel

from core.commands import Lang
from core.nlu import BUILDINGS

__all__ = ["ANY_BUILDING", "BookingSlots", "check_booking", "MAX_HOURS", "HORIZON_DAYS"]

ANY_BUILDING = "any"
MAX_HOURS = 4
HORIZON_DAYS = 14


class BookingSlots(BaseModel):
    date: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    rooms: int = 1
    adjacent: bool = False
    building: str | None = None  # a portal code, or "any"
    room: list[str] | None = None
    capacity: int | None = None


def _minutes(value: dt.time) -> int:
    return value.hour * 60 + value.minute


def check_booking(
    slots: dict[str, object], lang: Lang, *, today: dt.date
) -> tuple[str, str] | None:
    """(slot, reason) for the first rule the request breaks, or None."""

    def t(ru: str, en: str) -> str:
        return ru if lang == "ru" else en

    model = BookingSlots.model_validate(slots)
    if model.building not in (None, ANY_BUILDING) and model.building not in {
        b.code for b in BUILDINGS
    }:
        return "building", t("Такого корпуса нет", "There is no such building")
    if model.date is not None:
        if model.date < today:
            return "date", t("Эта дата уже прошла", "That date has passed")
        if model.date > today + dt.timedelta(days=HORIZON_DAYS):
            return "date", t(
                f"Портал бронирует не дальше чем на {HORIZON_DAYS} дней вперёд",
                f"The portal books at most {HORIZON_DAYS} days ahead",
            )
    for name, value in (("start", model.start), ("end", model.end)):
        if value is not None and (value.minute % 30 or value.second):
            return name, t("Время должно быть кратно 30 минутам", "Times go in 30-minute steps")
        if value is not None and not dt.time(8) <= value <= dt.time(22):
            return name, t("Аудитории доступны с 08:00 до 22:00", "Rooms are open 08:00–22:00")
    if model.start is not None and model.end is not None:
        length = _minutes(model.end) - _minutes(model.start)
        if length <= 0:
            return "end", t("Конец должен быть позже начала", "The end must be after the start")
        if length > MAX_HOURS * 60:
            return "end", t(
                f"Бронь не длиннее {MAX_HOURS} часов", f"A booking lasts at most {MAX_HOURS} hours"
            )
    return None
