"""Clarifying questions, one per slot, in Russian and English."""

from __future__ import annotations

from core.nlu.decision import Lang, SlotName

__all__ = ["question_for"]

_QUESTIONS: dict[SlotName, tuple[str, str]] = {
    "date": ("На какую дату?", "For which date?"),
    "start": ("Во сколько начать?", "What time should it start?"),
    "end": ("До скольки?", "Until what time?"),
    "rooms": ("Сколько аудиторий нужно?", "How many rooms do you need?"),
    "adjacent": ("Аудитории должны быть рядом?", "Should the rooms be next to each other?"),
    "building": ("В каком корпусе?", "In which building?"),
    "room": ("Какая аудитория?", "Which room?"),
    "capacity": ("На сколько человек?", "For how many people?"),
    "recurrence": ("По каким дням недели?", "On which days of the week?"),
}


def question_for(slot: SlotName, lang: Lang) -> str:
    """The question that asks for ``slot``; ``KeyError`` for an unknown slot name."""
    ru, en = _QUESTIONS[slot]
    return ru if lang == "ru" else en
