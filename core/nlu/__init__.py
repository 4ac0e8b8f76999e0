"""Rule-based NLU for Russian and English commands: text → intent, slots, next action.

    parse(text, now=..., tz=...) -> Decision      the whole command
    score_intents(text) -> {Intent: score}        rule scores for the planner
    parse_slot(name, text, now=, tz=, lang=)      an answer to a clarifying question
    question_for(slot, lang)                      the clarifying question for a slot

No LLM and no network: a tokenizer, a keyword vocabulary with stems and fuzzy matching
(snowballstemmer, rapidfuzz) and small readers for dates, times, counts and recurrence.
Date and hour rules are documented in ``dates`` and ``times``; speed in ``parser``.
"""

from __future__ import annotations

from core.nlu.answers import parse_slot
from core.nlu.buildings import BUILDINGS, Building, building_by_code
from core.nlu.decision import (
    WEEKDAYS,
    Decision,
    Intent,
    Lang,
    NextAction,
    Recurrence,
    SlotName,
    Slots,
    Weekday,
)
from core.nlu.errors import NLUError, SlotParseError
from core.nlu.intents import score_intents
from core.nlu.parser import detect_lang, parse
from core.nlu.questions import question_for

__all__ = [
    "BUILDINGS",
    "WEEKDAYS",
    "Building",
    "Decision",
    "Intent",
    "Lang",
    "NLUError",
    "NextAction",
    "Recurrence",
    "SlotName",
    "SlotParseError",
    "Slots",
    "Weekday",
    "building_by_code",
    "detect_lang",
    "parse",
    "parse_slot",
    "question_for",
    "score_intents",
]
