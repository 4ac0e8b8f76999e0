"""The engine's parsing primitives for Russian and English commands (tokens, vocabulary,
dates, times, counts, places, negation) and the typed ``Decision`` a reading makes.

    parse_slot(name, text, now=, tz=, lang=, places=)   an answer to a clarifying question
    question_for(slot, lang)                            the clarifying question for a slot
    date_question(slots, today=, lang=)                 the date question, buttons included
    start_question(lang=), end_question(slots, lang=)   the time questions, buttons included
    Places.from_catalogue(catalogue)                    the site's buildings, for the above

No LLM and no network: a tokenizer, a keyword vocabulary with stems and fuzzy matching
(snowballstemmer, rapidfuzz) and small readers for dates, times, counts and recurrence.
Date and hour rules are documented in ``dates`` and ``times``. A job reads a whole command
with these (the booking job: ``scenarios.booking.vocabulary``).
"""

from __future__ import annotations

from core.nlu.analysis import detect_lang
from core.nlu.answers import parse_slot
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
from core.nlu.places import Places
from core.nlu.questions import (
    DATE_OPTIONS,
    date_question,
    disputed_dates,
    end_question,
    question_for,
    start_question,
)
from core.nlu.slots import MAX_ROOMS

__all__ = [
    "DATE_OPTIONS",
    "MAX_ROOMS",
    "WEEKDAYS",
    "Decision",
    "Intent",
    "Lang",
    "NLUError",
    "NextAction",
    "Places",
    "Recurrence",
    "SlotName",
    "SlotParseError",
    "Slots",
    "Weekday",
    "date_question",
    "detect_lang",
    "disputed_dates",
    "parse_slot",
    "end_question",
    "question_for",
    "start_question",
]
