"""``parse``: one command → a typed ``Decision``, rules only (no LLM).

Measured on this machine before choosing the approach (Python 3.11):

* ``dateparser`` 1.5 (``languages=["ru", "en"]``, future preference): first call 124 ms,
  then 0.4–48 ms per phrase («послезавтра» 48 ms, "day after tomorrow" 12 ms, «27 ноября»
  1.9 ms); it returns nothing for «в этот четверг», «следующий четверг» and for whole
  commands. Too slow and too narrow for the hot path, so it is not used.
* Snowball's Russian stemmer costs ~50 µs a word and rapidfuzz's ``extractOne`` over the
  vocabulary (430 forms) ~25–35 µs, so both sit behind an exact-form table and per-word caches.
* This module (hand-written tokenizer + fuzzy keyword vocabulary), ``python bench/nlu.py``
  on 5 000 generated RU/EN commands (2 vCPUs): cold (fresh per-word caches) median
  0.07 ms, p99 0.13 ms; warm median 0.04 ms, p99 0.06 ms. First call (tables built)
  ~6 ms. (Half of it had been iterating the ``Intent`` enum: see ``_CANDIDATES``.)
* Buildings from the catalogue (``Places``, per-instance word cache, a cheap first look
  that skips most commands) added ~3 µs warm and nothing measurable cold on the same
  5 000 commands (another run of this machine: warm 0.057 → 0.061 ms, cold 0.109 ms both);
  ``Places.from_catalogue`` takes ~0.3 ms (~4 ms the first time, stemmer included).
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from core.nlu.analysis import Tok, analyze, has_cyrillic
from core.nlu.bounds import out_of_bounds
from core.nlu.decision import WEEKDAYS, Decision, Intent, Lang, Recurrence, SlotName, Slots
from core.nlu.intents import score
from core.nlu.negation import deny
from core.nlu.places import Places
from core.nlu.questions import question_for
from core.nlu.slots import extract_slots
from core.nlu.unknown_place import as_written

__all__ = ["MIN_CONFIDENCE", "detect_lang", "local_today", "parse"]

MIN_CONFIDENCE = 0.5
_CANDIDATES = tuple(i for i in Intent if i is not Intent.UNKNOWN)  # Enum iteration is slow
_NO_SLOTS = frozenset({Intent.UNKNOWN, Intent.HELP, Intent.DECLINE})
_BOOKING = frozenset({Intent.BOOK_ROOMS, Intent.SCHEDULE_BOOKING})
_WEEKLY = frozenset({Intent.SCHEDULE_BOOKING, Intent.CANCEL_SCHEDULE, Intent.LIST_SCHEDULES})
_REQUIRED: dict[Intent, tuple[SlotName, ...]] = {
    Intent.BOOK_ROOMS: ("date", "start", "end"),
    Intent.SCHEDULE_BOOKING: ("recurrence", "start", "end"),
}


def detect_lang(text: str) -> Lang:
    """``ru`` if the text has any Cyrillic letter, else ``en``."""
    return "ru" if has_cyrillic(text) else "en"


def local_today(now: datetime, tz: ZoneInfo) -> date:
    """Today's date in ``tz``; a naive ``now`` is taken as already local."""
    if now.tzinfo is None:
        return now.date()
    return now.astimezone(tz).date()


def parse(text: str, *, now: datetime, tz: ZoneInfo, places: Places) -> Decision:
    """Parse one command. Never raises on user input; unparseable text is ``unknown``.

    ``places``: the booking system's buildings (``Places.from_catalogue``); the slot
    ``building`` is one of their codes."""
    lang = detect_lang(text)
    toks = analyze(text)
    slots = extract_slots(toks, today=local_today(now, tz), lang=lang, places=places)
    denial = deny(toks)
    scores = score(toks, slots, denial)
    intent: Intent = max(_CANDIDATES, key=scores.__getitem__)
    if scores[intent] < MIN_CONFIDENCE:
        intent = Intent.UNKNOWN
    confidence = scores[intent]

    if slots.unknown_place is not None:
        slots = slots.model_copy(update={"unknown_place": as_written(text, slots.unknown_place)})
    if intent in _NO_SLOTS:
        slots = Slots()
    elif intent in _BOOKING:
        if slots.room:
            slots = slots.model_copy(update={"rooms": len(slots.room)})
        elif slots.rooms is None:
            slots = slots.model_copy(update={"rooms": 1})
    else:
        slots = slots.model_copy(update={"rooms": None, "adjacent": None})

    if intent in _WEEKLY and slots.recurrence is None:
        slots = _weekday_as_recurrence(toks, slots)
    missing = [name for name in _REQUIRED.get(intent, ()) if getattr(slots, name) is None]
    question = question_for(missing[0], lang) if missing else None
    if intent in _BOOKING and (bounds := out_of_bounds(slots, lang)) is not None:
        # kept as written and asked first: «100000 аудиторий» is never booked as one room
        missing.insert(0, bounds[0])
        question = bounds[1]
    return Decision(
        intent=intent,
        confidence=max(0.0, min(1.0, confidence)),
        slots=slots,
        missing=missing,
        next_action="clarify" if missing else "execute",
        clarification_question=question,
        lang=lang,
        negated=denial is not None and denial.denied == "book",
    )


def _weekday_as_recurrence(toks: tuple[Tok, ...], slots: Slots) -> Slots:
    """For schedules a plain weekday ("stop the Friday autobooking") names the recurrence."""
    days = [d for d in WEEKDAYS if any(t.is_("WD") and t.arg == d for t in toks)]
    if not days:
        return slots
    when = slots.date
    if when is not None and WEEKDAYS[when.weekday()] in days:
        when = None
    return slots.model_copy(
        update={"recurrence": Recurrence(freq="weekly", weekdays=days), "date": when}
    )
