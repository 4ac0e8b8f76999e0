"""The booking slot model and the rules a request must meet before the site is asked
(the rules are the catalogue's: each booking system has its own)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel

from core.commands import Lang
from core.nlu import MAX_ROOMS
from core.site.models import Catalogue
from core.texts import Text, tr
from scenarios.booking.texts import Limits, days, duration

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
    unknown_place: str | None = None  # a building named that the site does not have


def _minutes(value: dt.time) -> int:
    return value.hour * 60 + value.minute


def _largest(catalogue: Catalogue, building: str | None) -> int | None:
    """The most people one room the bot may book seats (in ``building`` when one is named);
    None when no capacity is known. Rooms that need approval are not booked, so not counted."""
    rooms = catalogue.rooms if building in (None, ANY_BUILDING) else catalogue.rooms_in(building)
    seats = [r.capacity for r in rooms if r.capacity is not None and not r.needs_approval]
    return max(seats, default=None)


def _count_problem(model: BookingSlots, catalogue: Catalogue) -> tuple[str, Text] | None:
    """A count or capacity no booking can have: asked again, never clamped or dropped."""
    count = len(model.room) if model.room else model.rooms
    if count > MAX_ROOMS:
        return ("room" if model.room else "rooms"), Limits.TOO_MANY_ROOMS
    if count < 1:
        return "rooms", Limits.NO_ROOMS
    if model.capacity is not None:
        if model.capacity < 1:
            return "capacity", Limits.NO_PEOPLE
        largest = _largest(catalogue, model.building)
        if largest is not None and model.capacity > largest:
            return "capacity", Limits.TOO_MANY_PEOPLE
    return None


def _unknown_room(model: BookingSlots, catalogue: Catalogue) -> str | None:
    """A room number named that no room of the building (or, with none named, of the site)
    has; a catalogue that lists no rooms there cannot tell, so it names none."""
    if not model.room:
        return None
    anywhere = model.building in (None, ANY_BUILDING)
    known = catalogue.rooms if anywhere else catalogue.rooms_in(model.building or "")
    numbers = {room.number for room in known}
    return next((n for n in model.room if numbers and n not in numbers), None)


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
    if model.building is None and model.unknown_place:
        return broken("building", Limits.UNKNOWN_BUILDING, name=model.unknown_place)
    if (counted := _count_problem(model, catalogue)) is not None:
        slot, reason = counted
        most = MAX_ROOMS if slot != "capacity" else _largest(catalogue, model.building)
        return broken(slot, reason, most=most)
    if (unknown := _unknown_room(model, catalogue)) is not None:
        return broken("room", Limits.UNKNOWN_ROOM, number=unknown)
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
