"""Slots the text gave but no booking can have: too many or too few rooms, no people.

The parser keeps such values as written and asks about them (the reason, then the
question), so a request is never clamped or dropped in silence. The booking rules
(``scenarios.booking.slots``) say the same when the product runs the request; they
also know the rooms' capacities, which the parser does not.
"""

from __future__ import annotations

from core.nlu import MAX_ROOMS, Lang, SlotName, Slots, question_for
from core.texts import Run, Text, tr
from scenarios.booking.texts import Limits

__all__ = ["out_of_bounds"]


def _problem(slots: Slots) -> tuple[SlotName, Text] | None:
    if slots.rooms is not None and slots.rooms < 1:
        return "rooms", Limits.NO_ROOMS
    if slots.rooms is not None and slots.rooms > MAX_ROOMS:
        return "rooms", Limits.TOO_MANY_ROOMS
    if slots.capacity is not None and slots.capacity < 1:
        return "capacity", Limits.NO_PEOPLE
    return None


def out_of_bounds(slots: Slots, lang: Lang) -> tuple[SlotName, str] | None:
    """The first slot out of bounds and the question to ask about it, reason first:
    «Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?»."""
    found = _problem(slots)
    if found is None:
        return None
    slot, reason = found
    question = tr(
        Run.INVALID_ANSWER,
        lang,
        reason=tr(reason, lang, most=MAX_ROOMS),
        question=question_for(slot, lang),
    )
    return slot, question
