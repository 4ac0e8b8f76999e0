"""``parse``: one command → the booking job's typed ``Decision``, rules only (no LLM).

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

from datetime import datetime
from typing import ClassVar
from zoneinfo import ZoneInfo

from core.nlu import WEEKDAYS, Decision, Intent, Places, Recurrence, SlotName, Slots, question_for
from core.nlu.analysis import Tok, detect_lang
from core.nlu.dates import local_today
from core.nlu.questions import which_date
from core.nlu.slots import extract_slots
from core.nlu.unknown_place import as_written
from core.scenario import Utterance
from scenarios.booking.vocabulary.bounds import out_of_bounds
from scenarios.booking.vocabulary.intents import BookingIntent, score
from scenarios.booking.vocabulary.negation import deny
from scenarios.booking.vocabulary.words import read_tokens

__all__ = ["MIN_CONFIDENCE", "BookingReader", "parse"]

MIN_CONFIDENCE = 0.5
_CANDIDATES: tuple[str, ...] = (*BookingIntent, Intent.HELP, Intent.DECLINE)
_NO_SLOTS = frozenset({Intent.UNKNOWN, Intent.HELP, Intent.DECLINE})
_BOOKING = frozenset({BookingIntent.BOOK_ROOMS, BookingIntent.SCHEDULE_BOOKING})
_WEEKLY = frozenset(
    {BookingIntent.SCHEDULE_BOOKING, BookingIntent.CANCEL_SCHEDULE, BookingIntent.LIST_SCHEDULES}
)
_REQUIRED: dict[str, tuple[SlotName, ...]] = {
    BookingIntent.BOOK_ROOMS: ("date", "start", "end"),
    BookingIntent.SCHEDULE_BOOKING: ("recurrence", "start", "end"),
}


def parse(text: str, *, now: datetime, tz: ZoneInfo, places: Places) -> Decision:
    """Parse one command. Never raises on user input; unparseable text is ``unknown``.

    ``places``: the booking system's buildings (``Places.from_catalogue``); the slot
    ``building`` is one of their codes."""
    lang = detect_lang(text)
    toks = read_tokens(text)
    slots = extract_slots(toks, today=local_today(now, tz), lang=lang, places=places)
    denial = deny(toks)
    scores = score(toks, slots, denial)
    intent: str = max(_CANDIDATES, key=scores.__getitem__)
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
    if slots.date_options and "date" not in missing:  # a date said two ways is asked first
        missing.insert(0, "date")
    question = question_for(missing[0], lang) if missing else None
    if missing and missing[0] == "date" and slots.date_options:
        question = which_date(slots.date_options, lang)
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


class BookingReader:
    """The booking job's reading of a command, as the planner asks a job for it: the
    booking scenarios' (``BookRooms`` reads for them all, once a message) and
    ``clubman parse``'s."""

    acting: ClassVar[frozenset[str]] = frozenset(_BOOKING)

    def recognise(self, said: Utterance, decision: Decision) -> Decision:
        return parse(said.text, now=said.now, tz=said.tz, places=said.places)
