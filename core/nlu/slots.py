"""Slot extraction: analysed tokens → ``Slots`` (only what the text says; no defaults).

Buildings come first: ``Places.tag`` turns each mention («в 7-м корпусе», "building 3")
into one token, so no later reader takes its number. Then order matters, each reader
marks the tokens it used: recurrence → date → times → capacity («на 40 человек») → room
count («три аудитории», "a room") → room numbers (3–4 digits, «301а», or any number right
after «аудитория»/"room"/«№») → adjacency.
"""

from __future__ import annotations

from datetime import date

from core.nlu.analysis import Tok
from core.nlu.dates import extract_date
from core.nlu.decision import Lang, Slots
from core.nlu.places import Places
from core.nlu.recurrence import extract_recurrence
from core.nlu.times import extract_times

__all__ = ["MAX_ROOMS", "extract_slots", "room_numbers"]

MAX_ROOMS = 20
_MAX_CAPACITY = 1000
_COUNT_SKIP = 2  # adjectives allowed between a count and its noun ("two free adjacent rooms")
_UNITS = frozenset({"PEOPLE", "HOUR", "MINUTE", "DAY", "WEEK", "MONTH"})


def _number(tok: Tok) -> int | None:
    value = tok.number
    if value is None or value != int(value):
        return None
    return int(value)


def _capacity(toks: tuple[Tok, ...], used: set[int]) -> int | None:
    for i, tok in enumerate(toks):
        if i in used:
            continue
        value = _number(tok)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if value is not None and nxt is not None and nxt.is_("PEOPLE"):
            used.update((i, i + 1))
            return value if 0 < value <= _MAX_CAPACITY else None
        if tok.is_("CAPACITY"):
            for j in range(i + 1, min(i + 4, len(toks))):
                found = _number(toks[j])
                if found is not None and j not in used:
                    used.update(range(i, j + 1))
                    return found if 0 < found <= _MAX_CAPACITY else None
    return None


def _count(toks: tuple[Tok, ...], used: set[int]) -> int | None:
    for i, tok in enumerate(toks):
        if i in used:
            continue
        value = 1 if tok.is_("ART") else _number(tok)
        if value is None or (tok.kind == "int" and len(tok.text) > 2):
            continue
        for j in range(i + 1, min(i + 2 + _COUNT_SKIP, len(toks))):
            nxt = toks[j]
            if nxt.is_("ROOM"):
                used.update(range(i, j))
                return value if 0 < value <= MAX_ROOMS else None
            if j in used or nxt.kind != "word" or nxt.concept not in (None, "ADJ"):
                break
    return None


def room_numbers(toks: tuple[Tok, ...], used: set[int], *, any_length: bool = False) -> list[str]:
    """Room numbers in ``toks``: «301», «301а», «аудитория 5», "room #12"."""
    found: list[str] = []
    for i, tok in enumerate(toks):
        if i in used or tok.kind not in ("int", "room"):
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.concept in _UNITS:
            continue
        prev = toks[i - 1] if i > 0 else None
        after_noun = prev is not None and prev.is_("ROOM", "ROOMNO")
        digits = tok.text if tok.kind == "int" else tok.text[:-1]
        long_enough = 3 <= len(digits) <= 4 and not digits.startswith("0")
        if tok.kind == "room" or long_enough or after_noun or any_length:
            used.add(i)
            if tok.text not in found:
                found.append(tok.text)
    return found


def extract_slots(toks: tuple[Tok, ...], *, today: date, lang: Lang, places: Places) -> Slots:
    toks = places.tag(toks)
    used: set[int] = set()
    recurrence = extract_recurrence(toks, used)
    when, _ = extract_date(toks, used, today, lang)
    start, end = extract_times(toks, used)
    capacity = _capacity(toks, used)
    rooms = _count(toks, used)
    numbers = room_numbers(toks, used)
    building = places.building_in(toks)
    adjacent = True if any(t.is_("ADJ") for t in toks) else None
    return Slots(
        date=when,
        start=start,
        end=end,
        rooms=rooms,
        adjacent=adjacent,
        building=building,
        room=numbers or None,
        capacity=capacity,
        recurrence=recurrence,
    )
