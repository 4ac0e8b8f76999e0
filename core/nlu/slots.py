"""Slot extraction: analysed tokens → ``Slots`` (only what the text says; no defaults).

Buildings come first: ``Places.tag`` turns each mention («в 7-м корпусе», "building 3")
into one token, so no later reader takes its number. Then order matters, each reader
marks the tokens it used: recurrence → date → times → capacity («на 40 человек») → room
count («три аудитории», "a room") → room numbers (3–4 digits, «301а», or any number right
after «аудитория»/"room"/«№») → adjacency.

Counts and capacities are kept as written, however large, and a minus sign makes them
negative («-5 аудиторий»): the parser and the booking rules ask about them, never clamp or
drop them. Before a plural noun («100 аудиторий», "150 rooms") a 3–4 digit number is a
count, not a room number; 5 digits and more always are.
"""

from __future__ import annotations

from datetime import date

from core.nlu.analysis import Tok
from core.nlu.dates import extract_date
from core.nlu.decision import Lang, Slots
from core.nlu.places import Places
from core.nlu.recurrence import extract_recurrence
from core.nlu.times import extract_times
from core.nlu.unknown_place import unknown_place

__all__ = ["MAX_ROOMS", "extract_slots", "room_numbers"]

MAX_ROOMS = 20  # the most rooms one request books
_COUNT_SKIP = 2  # adjectives allowed between a count and its noun ("two free adjacent rooms")
_UNITS = frozenset({"PEOPLE", "HOUR", "MINUTE", "DAY", "WEEK", "MONTH"})
_PLURAL_NOUNS = frozenset({"аудиторий", "комнат", "кабинетов", "rooms", "classrooms"})
_ROOM_NUMBER_DIGITS = 4  # longer digit runs are never room numbers
_EXCEPT = frozenset({"не", "not", "кроме", "except", "без", "without"})
_CAPACITY_WORDS = frozenset(
    {"fits", "fit", "group", "team", "class", "seating", "holds", "группа", "группу", "группы",
     "группе", "команда", "команды", "команду"}
)  # fmt: skip


def _number(tok: Tok) -> int | None:
    value = tok.number
    if value is None or value != int(value):
        return None
    return int(value)


def _signed(toks: tuple[Tok, ...], i: int, used: set[int]) -> tuple[int | None, int]:
    """The number at ``toks[i]`` with its minus sign, and the index the number starts at."""
    value = _number(toks[i])
    if value is not None and i > 0 and toks[i - 1].kind == "minus" and i - 1 not in used:
        return -value, i - 1
    return value, i


def _capacity(toks: tuple[Tok, ...], used: set[int]) -> int | None:
    for i, tok in enumerate(toks):
        if i in used:
            continue
        value, first = _signed(toks, i, used)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if value is not None and nxt is not None and nxt.is_("PEOPLE"):
            used.update(range(first, i + 2))
            return value
        after = toks[i + 2] if i + 2 < len(toks) else None
        seats = after is not None and after.is_("PEOPLE")  # "a 40-seat room"
        if value is not None and nxt is not None and nxt.kind == "dash" and seats:
            used.update(range(first, i + 3))
            return value
        if tok.is_("PEOPLE") or tok.text in _CAPACITY_WORDS:
            # «человек на 15», «мест на 60», «человек 45», "fits 20", "a group of 15"
            j = i + 1
            if j < len(toks) and (toks[j].is_("FOR") or toks[j].text in ("of", "из")):
                j += 1
            found = _number(toks[j]) if j < len(toks) and j not in used else None
            after = toks[j + 1] if j + 1 < len(toks) else None
            if found is not None and not (after is not None and after.concept in _UNITS):
                used.update(range(i, j + 1))
                return found
        if tok.is_("CAPACITY"):
            for j in range(i + 1, min(i + 4, len(toks))):
                found, _ = _signed(toks, j, used)
                if found is not None and j not in used:
                    used.update(range(i, j + 1))
                    return found
    return None


def _count(toks: tuple[Tok, ...], used: set[int]) -> int | None:
    for i, tok in enumerate(toks):
        if i in used:
            continue
        value, first = (1, i) if tok.is_("ART") else _signed(toks, i, used)
        if value is None:
            continue
        for j in range(i + 1, min(i + 2 + _COUNT_SKIP, len(toks))):
            nxt = toks[j]
            if nxt.is_("ROOM"):
                if not _counts(tok, nxt):
                    break
                used.update(range(first, j))
                return value
            if j in used or nxt.kind != "word" or nxt.concept not in (None, "ADJ"):
                break
    return None


def _counts(number: Tok, noun: Tok) -> bool:
    """Whether a number before a room noun counts rooms («3 аудитории») rather than names
    one («301 аудитория»)."""
    if number.kind != "int" or len(number.text) <= 2 or len(number.text) > _ROOM_NUMBER_DIGITS:
        return True
    return noun.text in _PLURAL_NOUNS


def room_numbers(toks: tuple[Tok, ...], used: set[int], *, any_length: bool = False) -> list[str]:
    """Room numbers in ``toks``: «301», «301а», «аудитория 5», "room #12"."""
    found: list[str] = []
    seen: set[str] = set()  # a set, so thousands of numbers stay linear
    for i, tok in enumerate(toks):
        if i in used or tok.kind not in ("int", "room"):
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.concept in _UNITS:
            continue
        prev = toks[i - 1] if i > 0 else None
        if prev is not None and prev.text in _EXCEPT:  # «не 301, а 302»: never 301
            used.add(i)
            continue
        after_noun = prev is not None and prev.is_("ROOM", "ROOMNO")
        digits = tok.text if tok.kind == "int" else tok.text[:-1]
        long_enough = 3 <= len(digits) <= _ROOM_NUMBER_DIGITS and not digits.startswith("0")
        if tok.kind == "room" or long_enough or after_noun or any_length:
            used.add(i)
            if tok.text not in seen:
                seen.add(tok.text)
                found.append(tok.text)
    return found


def extract_slots(toks: tuple[Tok, ...], *, today: date, lang: Lang, places: Places) -> Slots:
    toks = places.tag(toks)
    used: set[int] = set()
    recurrence = extract_recurrence(toks, used)
    when = extract_date(toks, used, today, lang)
    start, end = extract_times(toks, used)
    capacity = _capacity(toks, used)
    rooms = _count(toks, used)
    numbers = room_numbers(toks, used)
    building = places.building_in(toks)
    unknown = None if building else unknown_place(toks)
    adjacent = True if any(t.is_("ADJ") for t in toks) else None
    return Slots(
        date=when.value,
        start=start,
        end=end,
        rooms=rooms,
        adjacent=adjacent,
        building=building,
        room=numbers or None,
        capacity=capacity,
        recurrence=recurrence,
        unknown_place=unknown,
        date_options=list(when.options) or None,
    )
