"""Answers to clarifying questions: «в четверг» to «На какую дату?», "18" to "What time…?".

``parse_slot`` returns the slot's typed value or raises ``SlotParseError`` with a short
reason in the user's language. Dates before today are rejected (bookings are forward).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from core.nlu.analysis import Tok, analyze
from core.nlu.dates import extract_date, local_today
from core.nlu.decision import WEEKDAYS, Lang, Recurrence, SlotName
from core.nlu.errors import SlotParseError
from core.nlu.lexicon import Lexicon
from core.nlu.places import Places
from core.nlu.recurrence import extract_recurrence, weekdays_from
from core.nlu.slots import MAX_ROOMS, extract_slots, room_numbers
from core.nlu.times import extract_times, read_clock, resolve_hour
from core.texts import Ask, Reason, Text, day_label, tr

__all__ = ["parse_slot"]


def _fail(reason: Text, lang: Lang, **values: object) -> SlotParseError:
    return SlotParseError(tr(reason, lang, **values))


def parse_slot(
    name: SlotName,
    text: str,
    *,
    now: datetime,
    tz: ZoneInfo,
    lang: Lang,
    places: Places,
    lexicon: Lexicon | None = None,
    offered: Sequence[date] = (),
) -> object:
    """The typed value of slot ``name`` in an answer ``text``; ``SlotParseError`` if none.

    ``building`` is a code of ``places``; a bare «7» or «Б» will do when one building
    is numbered or lettered so. ``lexicon``: the asking job's words (none: the engine's),
    so an answer means what it means in that job's commands (in the booking job's,
    «не нужно» is a need denied, not a «yes»). ``offered``: the dates a date question
    offered for a day said two ways; a weekday alone («в среду») means the one it names."""
    toks = places.tag(analyze(text, lexicon))
    today = local_today(now, tz)
    if name == "date":
        return _date(toks, today, lang, offered)
    if name in ("start", "end"):
        return _time(toks, lang)
    if name in ("rooms", "capacity"):
        slots = extract_slots(toks, today=today, lang=lang, places=places)
        value = slots.rooms if name == "rooms" else slots.capacity
        if value is None:
            value = _first_number(toks)
        if value is None:
            raise _fail(Reason.NUMBER, lang)
        if name == "rooms" and not 1 <= value <= MAX_ROOMS:
            raise _fail(Reason.ROOMS, lang, most=MAX_ROOMS)
        if value < 1:
            raise _fail(Reason.NUMBER, lang)
        return value
    if name == "building":
        code = places.answer(toks)
        if code is None:
            raise _fail(Reason.BUILDING, lang)
        return code
    if name == "room":
        found = room_numbers(toks, set(), any_length=True)
        if not found:
            raise _fail(Reason.ROOM, lang)
        return found
    if name == "adjacent":
        if any(t.is_("ADJ", "YES") for t in toks):
            return True
        if any(t.is_("NO") for t in toks):
            return False
        raise _fail(Reason.YESNO, lang)
    if name == "recurrence":
        return _recurrence(toks, lang)
    raise _fail(Reason.SLOT, lang)


def _first_number(toks: tuple[Tok, ...]) -> int | None:
    """The first number in an answer, with its sign («-5» is an error, not 5); "a" is 1."""
    for i, tok in enumerate(toks):
        if tok.number is not None:
            negative = i > 0 and toks[i - 1].kind == "minus"
            return -int(tok.number) if negative else int(tok.number)
        if tok.is_("ART"):
            return 1
    return None


def _date(toks: tuple[Tok, ...], today: date, lang: Lang, offered: Sequence[date]) -> date:
    found = extract_date(toks, set(), today, lang)
    if found.by_weekday and found.value is not None:
        named = [day for day in offered if day.weekday() == found.value.weekday()]
        if len(named) == 1:
            return named[0]
    if found.options:  # «в среду 1 декабря» as an answer: which one is asked again
        first, second = (day_label(day, lang) for day in found.options)
        raise _fail(Ask.WHICH_DATE, lang, first=first, second=second)
    value = found.value
    if value is None:
        raise _fail(Reason.DATE, lang)
    if value < today:
        raise _fail(Reason.PAST, lang)
    return value


def _time(toks: tuple[Tok, ...], lang: Lang) -> time:
    start, end = extract_times(toks, set())
    if start is not None:
        return start
    if end is not None:
        return end
    for i in range(len(toks)):
        clock = read_clock(toks, i, loose=True)
        if clock is not None and clock.valid:
            return time(resolve_hour(clock), clock.minute)
    raise _fail(Reason.TIME, lang)


def _recurrence(toks: tuple[Tok, ...], lang: Lang) -> Recurrence:
    found = extract_recurrence(toks, set())
    if found is not None:
        return found
    for i in range(len(toks)):
        days, _ = weekdays_from(toks, i, set())
        if days:
            return Recurrence(freq="weekly", weekdays=[d for d in WEEKDAYS if d in days])
    raise _fail(Reason.WEEKDAYS, lang)
