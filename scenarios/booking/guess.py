"""What the booking job lets an LLM guess when its rules leave a required slot missing
(«нам бы посидеть послезавтра вечерком»): the date, the times, the building, the rooms.
Every guess is checked against the same types the rules produce and against the site's
buildings; what the user wrote always wins."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from core.guessing import Guessing
from core.nlu import Decision, Slots
from core.site.models import Building

__all__ = ["BookingGuess", "BookingGuessing"]

_ROOM = re.compile(r"^\d{2,4}[a-zа-я]?$", re.IGNORECASE)

_BRIEF = """You extract booking details from one message to a room-booking assistant.
date: YYYY-MM-DD; start and end: HH:MM (24h); building: {buildings}; room: room numbers;
rooms: how many rooms; weekdays: mon..sun for weekly bookings."""


class BookingGuess(BaseModel):
    """What the LLM may return; each field is validated again before use."""

    date: str | None = None  # YYYY-MM-DD
    start: str | None = None  # HH:MM
    end: str | None = None
    rooms: int | None = None
    adjacent: bool | None = None
    building: str | None = None  # a building code
    room: list[str] | None = None
    capacity: int | None = None
    weekdays: list[str] | None = None  # mon..sun, for weekly bookings


def _buildings_line(buildings: Sequence[Building]) -> str:
    if not buildings:
        return "null"
    named = "; ".join(
        f"{b.code} ({', '.join(n for n in (b.name, b.name_en) if n)})" for b in buildings
    )
    return f"the code of one of {named}; or null"


def _sane(name: str, value: Any, today: dt.date, codes: frozenset[str]) -> bool:
    if name == "building":
        return value in codes
    if name == "room":
        return bool(value) and all(_ROOM.match(r) for r in value)
    if name == "rooms":
        return 1 <= value <= 10
    if name == "capacity":
        return 1 <= value <= 500
    if name == "date":
        return today <= value <= today + dt.timedelta(days=366)
    return True


def merge(
    found: Slots, guess: BookingGuess, *, today: dt.date, buildings: Sequence[Building] = ()
) -> tuple[Slots, list[str]]:
    """``found`` plus every valid guessed slot it lacks; the names added. A guessed building
    must be the code of one of ``buildings`` (none given: no building is taken)."""
    codes = frozenset(b.code for b in buildings)
    raw: dict[str, Any] = guess.model_dump(exclude_none=True)
    if "weekdays" in raw:
        raw["recurrence"] = {"freq": "weekly", "weekdays": raw.pop("weekdays")}
    data = found.model_dump()
    added: list[str] = []
    for name, value in raw.items():
        if data.get(name) is not None:
            continue  # the user's own words win
        if name == "date" and found.date_options:
            continue  # a date the user said two ways is asked, never guessed
        try:
            single = Slots.model_validate({name: value})
        except ValidationError:
            continue
        typed = getattr(single, name)
        if typed is None or not _sane(name, typed, today, codes):
            continue
        data[name] = typed
        added.append(name)
    return Slots.model_validate(data), added


class BookingGuessing(Guessing[BookingGuess]):
    model: ClassVar[type[BaseModel]] = BookingGuess

    def brief(self, buildings: Sequence[Building]) -> str:
        """The buildings are the site's (its catalogue, read at run time): a guessed
        building must be one of their codes."""
        return _BRIEF.format(buildings=_buildings_line(buildings))

    def merge(
        self,
        decision: Decision,
        guess: BookingGuess,
        *,
        today: dt.date,
        buildings: Sequence[Building],
    ) -> tuple[Decision, list[str]]:
        slots, added = merge(decision.slots, guess, today=today, buildings=buildings)
        if slots.rooms is None:
            slots = slots.model_copy(update={"rooms": len(slots.room) if slots.room else 1})
        return decision.model_copy(update={"slots": slots}), added
