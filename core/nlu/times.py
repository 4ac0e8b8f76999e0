"""Times of day: ranges, single times and durations → (start, end).

Rules (documented for users of the decision JSON):

* «с 9 до 11», "from 3pm to 5pm", "18:00–20:00", "10-12", "between 2 and 4",
  «в 19:00 на 2 часа», "at 7pm for an hour", «на полтора часа», "for 90 minutes".
* An hour 1–7 written without am/pm, without a time-of-day word («утра», «вечера»,
  «дня», «ночи», "morning") and without a leading zero means 13:00–19:00
  (rooms are booked in the afternoon and evening): «с 6 до 8» → 18:00–20:00,
  but "07:00" stays 07:00 and «в 7 утра» is 07:00.
* In a range, a marker on one side carries over: "from 3pm to 5" → 15:00–17:00,
  "6-8pm" → 18:00–20:00. If the end still is not after the start, an end below 12 is
  read as pm («с 11 до 1» → 11:00–13:00); failing that the end is dropped (asked for).
* Impossible times («с 25 до 26», "24:30") are dropped, never raised.
* A duration sets the end only when it stays within the same day; it may be said unit
  first, as an estimate: «часа на полтора, начиная с 15» → 15:00–16:30, «минут на сорок».
* A part of the day said on its own ("afternoon", "in the afternoon", "evening", "morning",
  "tonight", «вечером», «утром») makes a bare "3 to 5" a range of hours (without one it may
  be minutes to the hour, and is asked); "afternoon" reads its hours as pm.
"""

from __future__ import annotations

from datetime import time
from typing import NamedTuple

from core.nlu.analysis import Tok

__all__ = ["Clock", "extract_times", "read_clock", "resolve_hour"]

_BLOCKERS = frozenset({"ROOM", "PEOPLE", "MONTH", "DAY", "WEEK", "MINUTE", "WD", "ADJ"})
_HOUR_WORDS = frozenset({"ч", "h", "час", "часа", "часов", "hours", "hour"})
_MARKERS = {"PM": "pm", "EVENING": "pm", "AM": "am", "MORNING": "am", "NIGHT": "night"}
# Parts of the day said on their own (not a marker after an hour): the hours they read as.
_PARTS_OF_DAY = {"afternoon": "pm", "in the afternoon": "pm", "evening": None, "morning": None,
                 "tonight": None}  # fmt: skip
# What may follow the amount of a unit-first duration («часа на два»), so that «в 15 часов
# на 2 аудитории» stays a count of rooms.
_NOT_AFTER_AMOUNT = _BLOCKERS | {"PEOPLE", "HOUR"}
_MOST_HOURS = 12  # «часа на 20» is no duration


class Clock(NamedTuple):
    hour: int
    minute: int
    marker: str | None  # "am" | "pm" | "night" | None
    padded: bool  # written with a leading zero ("07:00"): 24-hour clock
    valid: bool
    end: int  # index after the expression


def _marker(tok: Tok) -> str | None:
    if tok.text == "дня":  # also a form of «день», which the lexicon gives it
        return "pm"
    return _MARKERS.get(tok.concept or "")


def read_clock(
    toks: tuple[Tok, ...], i: int, *, loose: bool, range_end: bool = False
) -> Clock | None:
    """A time of day starting at ``toks[i]``; bare numbers count only when ``loose``. The
    end of a range may stand before a room noun («с 18 до 20 аудиторию любую»)."""
    if i >= len(toks):
        return None
    tok = toks[i]
    kind, concept = tok.kind, tok.concept  # read once: this runs for most tokens
    if concept == "NOON":
        return Clock(12, 0, "pm", False, True, i + 1)
    if kind == "clock" or (kind == "dotted" and _time_like(tok.text)):
        hh, mm = tok.text.replace(".", ":").split(":")
        hour, minute, padded = int(hh), int(mm), hh.startswith("0")
    elif kind == "int" and len(tok.text) <= 2 or concept == "NUM":
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        number = tok.number
        if number is None or number != int(number) or number > 99:
            return None
        blocked = nxt is not None and nxt.concept in _BLOCKERS
        if blocked and not (range_end and nxt is not None and nxt.concept == "ROOM"):
            return None
        marked = nxt is not None and (_marker(nxt) is not None or nxt.text in _HOUR_WORDS)
        if not (loose or (marked and kind == "int")):
            return None
        hour, minute, padded = int(number), 0, tok.text.startswith("0")
    else:
        return None
    j = i + 1
    if j < len(toks) and (toks[j].text in _HOUR_WORDS or toks[j].concept == "OCLOCK"):
        j += 1
    marker = _marker(toks[j]) if j < len(toks) else None
    if marker is not None:
        j += 1
    valid = 0 <= hour <= 23 and 0 <= minute <= 59 and (marker is None or hour <= 12)
    return Clock(hour, minute, marker, padded, valid, j)


def _time_like(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 2 and len(parts[1]) == 2 and (parts[1] == "00" or int(parts[1]) > 12)


def resolve_hour(clock: Clock, default_marker: str | None = None) -> int:
    """The 24-hour hour of ``clock`` under the rules in the module docstring."""
    hour, marker = clock.hour, clock.marker or default_marker
    if marker == "pm":
        return hour + 12 if hour < 12 else hour
    if marker in ("am", "night"):
        if hour == 12:
            return 0
        return hour + 12 if marker == "night" and 6 <= hour < 12 else hour
    if 1 <= hour <= 7 and not clock.padded:
        return hour + 12
    return hour


def _read_duration(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    """Minutes of a duration starting at ``toks[i]`` and the index after it."""
    n = len(toks)
    if i >= n:
        return None
    tok = toks[i]
    if tok.is_("HALF_HOUR"):
        return 30, i + 1
    if tok.is_("HOUR"):
        minutes, j = 60, i + 1
    elif tok.is_("ONE_HALF") and i + 1 < n and toks[i + 1].is_("HOUR"):
        minutes, j = 90, i + 2
    else:
        amount = 1.0 if tok.is_("ART") else tok.number
        if amount is None and tok.kind == "dotted" and tok.text.count(".") == 1:
            amount = float(tok.text)
        if amount is None or i + 1 >= n:
            return None
        unit = toks[i + 1]
        halves = _and_a_half(toks, i + 1)  # "two and a half hours"
        if halves is not None:
            return round((amount + 0.5) * 60), halves
        if unit.is_("HOUR"):
            minutes, j = round(amount * 60), i + 2
        elif unit.is_("MINUTE"):
            return round(amount), i + 2
        else:
            return None
    # "1 hour 30 minutes", «час с половиной», "an hour and a half"
    if j + 1 < n and toks[j].number is not None and toks[j + 1].is_("MINUTE"):
        minutes += int(toks[j].number or 0)
        j += 2
    elif j + 1 < n and toks[j].is_("AND", "FROM") and toks[j + 1].is_("HALF"):
        minutes, j = minutes + 30, j + 2
    elif j + 2 < n and toks[j].is_("AND") and toks[j + 1].is_("ART") and toks[j + 2].is_("HALF"):
        minutes, j = minutes + 30, j + 3
    return minutes, j


def _and_a_half(toks: tuple[Tok, ...], j: int) -> int | None:
    """The index after "and a half hours" / «с половиной часа» at ``j``, or None."""
    k = j + 1 if j < len(toks) and toks[j].is_("AND", "FROM") else None
    if k is not None and k < len(toks) and toks[k].is_("ART"):
        k += 1
    if k is None or k + 1 >= len(toks) or not toks[k].is_("HALF") or not toks[k + 1].is_("HOUR"):
        return None
    return k + 2


def _ranges(toks: tuple[Tok, ...], j: int, *, hours: bool = False) -> bool:
    """Whether ``toks[j]`` joins a bare number to a time into a range: a dash, or "to"
    before a marked end or one with minutes ("3 to 5pm", "10 to 11:30"; a bare "3 to 5"
    may be minutes to the hour, unless a part of the day says it is hours: ``hours``)."""
    end = toks[j + 1]
    if toks[j].kind == "dash":
        return end.kind in ("int", "clock")
    if toks[j].text != "to" or end.kind not in ("int", "clock"):
        return False
    marked = j + 2 < len(toks) and _marker(toks[j + 2]) is not None
    return end.kind == "clock" or marked or (hours and end.kind == "int")


def _unit_first(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    """Minutes of a duration said unit first around «на» at ``toks[i]`` («часа на полтора»,
    «минут на сорок»; «с 14 часа на полтора», its unit the start's hour word), and the
    index after it."""
    if i < 1 or i + 1 >= len(toks) or not toks[i - 1].is_("HOUR", "MINUTE"):
        return None
    amount_tok = toks[i + 1]
    amount = 1.5 if amount_tok.is_("ONE_HALF") else amount_tok.number
    after = toks[i + 2] if i + 2 < len(toks) else None
    if amount is None or amount <= 0 or (after is not None and after.concept in _NOT_AFTER_AMOUNT):
        return None
    if toks[i - 1].is_("MINUTE"):
        return round(amount), i + 2
    return (round(amount * 60), i + 2) if amount <= _MOST_HOURS else None


def _range_end(toks: tuple[Tok, ...], j: int) -> Clock | None:
    if j < len(toks) and (toks[j].is_("TO", "AND") or toks[j].kind == "dash"):
        return read_clock(toks, j + 1, loose=True, range_end=True)
    return None


def extract_times(toks: tuple[Tok, ...], used: set[int]) -> tuple[time | None, time | None]:
    """Start and end found in ``toks``; marks the tokens it reads in ``used``."""
    default = None
    concepts = {t.concept for t in toks}
    if "EVENING" in concepts or any(t.text == "tonight" for t in toks):
        default = "pm"
    elif "MORNING" in concepts:
        default = "am"
    parts = [t.text for t in toks if t.text in _PARTS_OF_DAY]
    if default is None and parts:
        default = _PARTS_OF_DAY[parts[0]]
    hours = default is not None or bool(parts)  # a bare "3 to 5" is hours
    start: Clock | None = None
    end: Clock | None = None
    duration: int | None = None
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        if i in used:
            i += 1
            continue
        first: Clock | None = None
        lone_end = False
        begin = i
        concept = tok.concept  # read once: this loop runs per token
        if concept in ("FROM", "AT") or (
            concept == "FOR" and i + 1 < n and toks[i + 1].kind == "clock"
        ):
            first = read_clock(toks, i + 1, loose=True)
        elif concept == "TO" and tok.text not in ("to", "по"):
            first, lone_end = read_clock(toks, i + 1, loose=True), True
        elif concept == "FOR":
            found = _read_duration(toks, i + 1) or _unit_first(toks, i)
            if found is not None:
                duration = found[0]
                used.update(range(i, found[1]))
                i = found[1]
                continue
        else:
            dash_range = i + 2 < n and _ranges(toks, i + 1, hours=hours)
            first = read_clock(toks, i, loose=dash_range and tok.kind == "int")
        if first is None:
            i += 1
            continue
        second = None if lone_end else _range_end(toks, first.end)
        stop = (second or first).end
        used.update(range(begin, stop))
        i = stop
        if lone_end:
            end = end or first
        elif second is not None:
            start, end = start or first, end or second
        elif start is None:
            start = first
        elif end is None:
            end = first
    return _resolve(start, end, duration, default)


def _resolve(
    start: Clock | None, end: Clock | None, duration: int | None, default: str | None
) -> tuple[time | None, time | None]:
    s = start if start is not None and start.valid else None
    e = end if end is not None and end.valid else None
    s_min = e_min = None
    if s is not None:
        s_min = resolve_hour(s, default) * 60 + s.minute
    if e is not None:
        carry = default or (s.marker if s is not None and s.marker == "pm" else None)
        e_min = resolve_hour(e, carry) * 60 + e.minute
        if (
            s is not None
            and s.marker is None
            and e.marker == "pm"
            and not s.padded
            and s.hour < 12
            and (s.hour + 12) * 60 + s.minute < e_min
        ):
            s_min = (s.hour + 12) * 60 + s.minute
        if s_min is not None and e_min <= s_min and e.marker is None and e.hour < 12:
            e_min = (e.hour + 12) * 60 + e.minute
        if s_min is not None and e_min <= s_min:
            e_min = None
    if s_min is not None and e_min is None and end is None and duration:
        candidate = s_min + duration
        e_min = candidate if candidate < 24 * 60 else None
    return _as_time(s_min), _as_time(e_min)


def _as_time(minutes: int | None) -> time | None:
    if minutes is None or not 0 <= minutes < 24 * 60:
        return None
    return time(minutes // 60, minutes % 60)
