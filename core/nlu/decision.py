"""The typed result of parsing one command: intent, slots, what is missing, what to do next."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field, SerializeAsAny, field_serializer

from core.commands import Lang

__all__ = [
    "WEEKDAYS",
    "Decision",
    "Intent",
    "Lang",
    "NextAction",
    "Recurrence",
    "SlotName",
    "Slots",
    "Weekday",
]

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WEEKDAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

SlotName = Literal[
    "date",
    "start",
    "end",
    "rooms",
    "adjacent",
    "building",
    "room",
    "capacity",
    "recurrence",
    "unknown_place",
]
NextAction = Literal["execute", "clarify"]


class Intent(StrEnum):
    """The engine's own intents. A job names its own (a plain string, e.g. ``book_rooms``,
    ``create_event``) and reads them itself (``BaseScenario.recognise``), so a
    ``Decision``'s intent is any string."""

    HELP = "help"
    DECLINE = "decline"  # a refusal: «не бронируй ничего»
    UNKNOWN = "unknown"


class Recurrence(BaseModel):
    freq: Literal["weekly"] = "weekly"
    weekdays: list[Weekday]


class Slots(BaseModel):
    """Everything the parser found; ``None`` means not given."""

    date: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    rooms: int | None = None
    adjacent: bool | None = None
    building: str | None = None
    room: list[str] | None = None
    capacity: int | None = None
    recurrence: Recurrence | None = None
    # A building named that the site does not have («в корпусе на Невском»), as written:
    # asked about by name, never dropped.
    unknown_place: str | None = None
    # A weekday and the date said with it that disagree («в среду 1 декабря», a Tuesday):
    # both dates, in order, offered when the date is asked; the date is never guessed.
    date_options: list[dt.date] | None = None

    @field_serializer("start", "end", when_used="json-unless-none")
    def _hhmm(self, value: dt.time) -> str:
        return value.strftime("%H:%M")


class Decision(BaseModel):
    intent: str  # an ``Intent`` or a plug-in scenario's own
    confidence: float = Field(ge=0.0, le=1.0)
    slots: Slots = Field(default_factory=Slots)
    missing: list[SlotName] = Field(default_factory=list)
    next_action: NextAction = "execute"
    clarification_question: str | None = None
    lang: Lang = "en"
    negated: bool = False  # the command denies booking: nothing may book or schedule it
    # What a plug-in scenario found that ``Slots`` has no field for (an event's title), in
    # the scenario's own model.
    details: SerializeAsAny[BaseModel] | None = None

    def found(self) -> dict[str, Any]:
        """Every slot found, ``slots`` and ``details`` alike, in its JSON form."""
        slots = self.slots.model_dump(mode="json", exclude_none=True)
        if self.details is not None:
            slots |= self.details.model_dump(mode="json", exclude_none=True)
        return slots

    def to_json(self) -> dict[str, object]:
        """The public decision JSON (``clubman parse --json``): slots hold only what was found."""
        return {
            "intent": str(self.intent),
            "confidence": round(self.confidence, 2),
            "slots": self.found(),
            "missing": list(self.missing),
            "next_action": self.next_action,
            "clarification_question": self.clarification_question,
            "lang": self.lang,
            "negated": self.negated,
        }
