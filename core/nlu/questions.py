"""Clarifying questions, one per slot (their texts are ``core.texts.Ask``)."""

from __future__ import annotations

from core.nlu.decision import Lang, SlotName
from core.texts import Ask, Text, tr

__all__ = ["question_for"]

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
