"""The booking slot model and the rules a request must meet before the site is asked
(the rules are the catalogue's: each booking system has its own)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel

from core.booking import Catalogue
from core.commands import Lang
from core.texts import Limits, Text, days, duration, tr

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


def check_booking(
    slots: dict[str, object], lang: Lang, *, today: dt.date, catalogue: Catalogue
) -> tuple[str, str] | None:
    """(slot, reason) for the first rule the request breaks, or None."""

    def broken(slot: str, reason: Text, **values: object) -> tuple[str, str]:
        return slot, tr(reason, lang, **values)

    rules = catalogue.rules
    model = BookingSlots.model_validate(slots)
    if model.building not in (None, ANY_BUILDING) and catalogue.building(model.building) is None:
        return broken("building", Limits.NO_SUCH_BUILDING)
    if model.room and model.building not in (None, ANY_BUILDING):
        # The bot never books a room that waits for someone's approval: say so up front.
        by_number = {room.number: room for room in catalogue.rooms_in(model.building)}
        for number in model.room:
            if (room := by_number.get(number)) is not None and room.needs_approval:
                return broken("room", Limits.NEEDS_APPROVAL, number=number)
    if model.date is not None:
        if model.date < today:
            return broken("date", Limits.DATE_PASSED)
        horizon = catalogue.horizon_for(model.building, model.room or ())
        if model.date > today + dt.timedelta(days=horizon):
            return broken("date", Limits.TOO_FAR, days=days(horizon, lang))
    opens, closes = f"{rules.opens:%H:%M}", f"{rules.closes:%H:%M}"
    for name, value in (("start", model.start), ("end", model.end)):
        if value is not None and (_minutes(value) % rules.step_minutes or value.second):
            return broken(name, Limits.STEP, minutes=rules.step_minutes)
        if value is not None and not rules.opens <= value <= rules.closes:
            return broken(name, Limits.OPEN_HOURS, opens=opens, closes=closes)
    if model.start is not None and model.end is not None:
        length = _minutes(model.end) - _minutes(model.start)
        if length <= 0:
            return broken("end", Limits.END_BEFORE_START)
        if length > rules.longest_minutes:
            longest = duration(rules.longest_minutes, lang)
            return broken("end", Limits.TOO_LONG, longest=longest)
    return None
