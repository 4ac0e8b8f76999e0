"""The booking slot model and the rules a request must meet before the site is asked
(the rules are the catalogue's: each booking system has its own)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel

from core.booking import Catalogue
from core.commands import Lang

__all__ = ["ANY_BUILDING", "BookingSlots", "check_booking"]

ANY_BUILDING = "any"


class BookingSlots(BaseModel):
    date: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    rooms: int = 1
    adjacent: bool = False
    building: str | None = None  # a catalogue building code, or "any"
    room: list[str] | None = None
    capacity: int | None = None


def _minutes(value: dt.time) -> int:
    return value.hour * 60 + value.minute


def _longest(minutes: int, lang: Lang) -> str:
    """«4 часов» / "4 hours": the genitive that follows «не длиннее»."""
    hours, exact = divmod(minutes, 60)
    count, unit = (hours, ("час", "hour")) if not exact else (minutes, ("минут", "minute"))
    if lang == "en":
        return f"{count} {unit[1]}" + ("" if count == 1 else "s")
    one = count % 10 == 1 and count % 100 != 11
    ending = {"час": ("а", "ов"), "минут": ("ы", "")}[unit[0]]
    return f"{count} {unit[0]}{ending[0] if one else ending[1]}"


def check_booking(
    slots: dict[str, object], lang: Lang, *, today: dt.date, catalogue: Catalogue
) -> tuple[str, str] | None:
    """(slot, reason) for the first rule the request breaks, or None."""

    def t(ru: str, en: str) -> str:
        return ru if lang == "ru" else en

    rules = catalogue.rules
    model = BookingSlots.model_validate(slots)
    if model.building not in (None, ANY_BUILDING) and catalogue.building(model.building) is None:
        return "building", t("Такого корпуса нет", "There is no such building")
    if model.date is not None:
        if model.date < today:
            return "date", t("Эта дата уже прошла", "That date has passed")
        horizon = catalogue.longest_horizon()
        if model.date > today + dt.timedelta(days=horizon):
            return "date", t(
                f"Бронировать можно не дальше чем на {horizon} дней вперёд",
                f"Rooms can be booked at most {horizon} days ahead",
            )
    opens, closes = f"{rules.opens:%H:%M}", f"{rules.closes:%H:%M}"
    for name, value in (("start", model.start), ("end", model.end)):
        if value is not None and (_minutes(value) % rules.step_minutes or value.second):
            return name, t(
                f"Время должно быть кратно {rules.step_minutes} минутам",
                f"Times go in {rules.step_minutes}-minute steps",
            )
        if value is not None and not rules.opens <= value <= rules.closes:
            return name, t(
                f"Аудитории доступны с {opens} до {closes}", f"Rooms are open {opens}–{closes}"
            )
    if model.start is not None and model.end is not None:
        length = _minutes(model.end) - _minutes(model.start)
        if length <= 0:
            return "end", t("Конец должен быть позже начала", "The end must be after the start")
        if length > rules.longest_minutes:
            longest = _longest(rules.longest_minutes, lang)
            return "end", t(f"Бронь не длиннее {longest}", f"A booking lasts at most {longest}")
    return None
