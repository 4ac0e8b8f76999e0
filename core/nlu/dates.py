"""Calendar dates: relative days, weekdays, explicit dates → one ``date``.

Rules:

* «сегодня/завтра/послезавтра», "today/tomorrow/day after tomorrow", «вчера»/"yesterday",
  «через 2 дня», "in a week".
* A bare weekday («в четверг», "on Thursday") and «этот/эту четверг», "this Thursday"
  mean the nearest such day from today on, today included.
* «следующий четверг», «в следующую среду», "next Thursday" mean that day in the next
  calendar week (weeks start on Monday): on Monday 23 Nov "next Thursday" is 3 Dec,
  while "Thursday" and "this Thursday" are 26 Nov.
* «прошлый/прошлую», "last" mean the latest such day before today.
* Explicit dates: «27 ноября», «27.11», «27.11.2026», "Nov 27", "November 27th",
  "2 December", "27th of November", "2026-11-27", and with slashes "11/27" in English
  (month first) or «27/11» in Russian (day first; swapped when the first part exceeds 12).
  Without a year, a date already past this year means next year.
* A date past the calendar («через 3000000 дней», year 10000 and on) is impossible, like
  31.11: no date, so it is asked, never replaced by another one.
* «18.30» and «18.00» are times, not dates (see ``times``).
* A weekday said with its date, before or after it («во вторник 1 декабря», «1 декабря, в
  среду», "Monday, November 30", «пн 30.11»; «сегодня/завтра» count as dates): when they
  agree the date wins (whatever «next»/«this» says); when they disagree there is no date,
  only both to offer (``DateFound.options``): the date as written and the named weekday
  nearest to it (never one already past). A booking on the wrong day costs more than a
  question.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from core.nlu.analysis import Tok
from core.nlu.decision import WEEKDAYS, Lang

__all__ = ["DateFound", "extract_date", "local_today", "upcoming", "weekday_date"]

_WEEKDAY_MODES = {"THIS": "this", "NEXT": "next", "LAST": "last"}
_SKIP_BEFORE_WEEKDAY = frozenset({"AT", "FOR", "TO"})
_RELATIVE_DAYS = {"TODAY": 0, "TOMORROW": 1, "AFTER_TOMORROW": 2, "YESTERDAY": -1}
# What may stand between a weekday and its date: «во вторник, 1 декабря», "Tuesday the 1st",
# «1 декабря, в среду», «1 декабря — среда». Nothing else («в среду и 1 декабря»: two days).
_PAIR_GLUE = frozenset({"the", "on"})
_NEAREST = 3  # the named weekday offered is within three days of the date


class DateFound(NamedTuple):
    """What ``extract_date`` read: the date (None: none, an impossible one or a dispute),
    whether one was written at all, the dates to offer when a weekday and its date
    disagree (the written one and the weekday's, in calendar order), and whether the date
    came from a weekday alone («в среду»: an answer may mean the Wednesday offered)."""

    value: date | None
    written: bool
    options: tuple[date, ...] = ()
    by_weekday: bool = False


def weekday_date(today: date, weekday: int, mode: str) -> date:
    """The date of ``weekday`` (0 = Monday) relative to ``today`` under ``mode``."""
    if mode == "next":
        monday_next = today + timedelta(days=7 - today.weekday())
        return monday_next + timedelta(days=weekday)
    if mode == "last":
        back = (today.weekday() - weekday) % 7 or 7
        return today - timedelta(days=back)
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def upcoming(today: date, day: int, month: int, year: int | None) -> date | None:
    """A calendar date; without a year, the next one on or after ``today``."""
    if year is not None:
        if year < 100:
            year += 2000
        return _safe(year, month, day)
    found = _safe(today.year, month, day)
    if found is not None and found < today:
        found = _safe(today.year + 1, month, day)
    return found


def _later(today: date, days: int) -> date | None:
    try:
        return today + timedelta(days=days)
    except OverflowError:  # past year 9999
        return None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day(tok: Tok | None) -> int | None:
    if tok is None or tok.kind != "int" or len(tok.text) > 2:
        return None
    value = int(tok.text)
    return value if 1 <= value <= 31 else None


def _year(toks: tuple[Tok, ...], j: int) -> tuple[int | None, int]:
    if j < len(toks) and toks[j].kind == "comma":
        j += 1
    if j < len(toks) and toks[j].kind == "int" and len(toks[j].text) == 4:  # digits only
        end = j + 1
        if end < len(toks) and toks[end].text in ("года", "год", "г"):
            end += 1
        return int(toks[j].text), end
    return None, j


def _at(toks: tuple[Tok, ...], i: int) -> Tok | None:
    return toks[i] if 0 <= i < len(toks) else None


def _week_after(toks: tuple[Tok, ...], j: int) -> tuple[str, int] | None:
    """("next" or "this", index after) for "next week" / «на этой неделе» at ``j``."""
    if j < len(toks) and toks[j].is_("FOR", "AT", "IN"):  # «на следующей неделе», "in"
        j += 1
    nxt, week = _at(toks, j), _at(toks, j + 1)
    if nxt is None or week is None or not week.is_("WEEK") or nxt.concept not in _WEEKDAY_MODES:
        return None
    return _WEEKDAY_MODES[nxt.concept or ""], j + 2


def _calendar(
    toks: tuple[Tok, ...], i: int, today: date, lang: Lang
) -> tuple[date | None, int] | None:
    """A date written as one («27 ноября», "Nov 27", «27.11», "11/27", ISO, «завтра») at
    ``toks[i]``: (value or None if impossible, index after) or None."""
    tok = toks[i]
    kind, concept = tok.kind, tok.concept  # read once: this runs for every token
    if concept in _RELATIVE_DAYS:
        return today + timedelta(days=_RELATIVE_DAYS[concept or ""]), i + 1
    nxt = _at(toks, i + 1)
    day = _day(tok)
    if day is not None and nxt is not None:
        after = _at(toks, i + 2)
        if nxt.is_("MONTH") or (nxt.text == "of" and after is not None and after.is_("MONTH")):
            month_tok = nxt if nxt.is_("MONTH") else after
            assert month_tok is not None
            year, end = _year(toks, i + (2 if nxt.is_("MONTH") else 3))
            return upcoming(today, day, int(month_tok.value or 0), year), end
    if concept == "MONTH":
        day = _day(nxt)
        if day is not None:
            year, end = _year(toks, i + 2)
            return upcoming(today, day, int(tok.value or 0), year), end
    if kind == "dotted" and not (nxt is not None and nxt.is_("HOUR", "MINUTE")):
        parts = [int(p) for p in tok.text.split(".")]
        if not (len(parts) == 2 and len(tok.text.split(".")[1]) == 2 and parts[1] > 12):
            return upcoming(today, parts[0], parts[1], parts[2] if len(parts) > 2 else None), i + 1
    if kind == "slash":
        a, b, *rest = (int(p) for p in tok.text.split("/"))
        day, month = (b, a) if lang == "en" and a <= 12 else (a, b)
        if month > 12:
            day, month = month, day
        return upcoming(today, day, month, rest[0] if rest else None), i + 1
    if kind == "iso":
        y, m, d = (int(p) for p in tok.text.split("-"))
        return _safe(y, m, d), i + 1
    return None


def _read_date(
    toks: tuple[Tok, ...], i: int, today: date, lang: Lang
) -> tuple[date | None, int] | None:
    """A date starting at ``toks[i]``: (value or None if impossible, index after) or None."""
    tok = toks[i]
    concept = tok.concept
    if concept == "WD" and tok.arg is not None:
        mode = "this"
        for back in (i - 1, i - 2):
            prev = _at(toks, back)
            if prev is None:
                break
            if prev.concept in _WEEKDAY_MODES:
                mode = _WEEKDAY_MODES[prev.concept or ""]
                break
            if prev.concept not in _SKIP_BEFORE_WEEKDAY and prev.text != "on":
                break
        end = i + 1
        if mode == "this" and (week := _week_after(toks, i + 1)) is not None:
            mode, end = week  # "monday next week", «в понедельник на следующей неделе»
        return weekday_date(today, WEEKDAYS.index(tok.arg), mode), end
    found = _calendar(toks, i, today, lang)
    if found is not None:
        return found
    nxt = _at(toks, i + 1)
    if concept == "WEEK" and nxt is not None and nxt.text == "from":  # "a week from today"
        after = _at(toks, i + 2)
        if after is not None and after.is_("TODAY", "TOMORROW"):
            return _later(today, 7 + _RELATIVE_DAYS[after.concept or ""]), i + 3
    if concept == "IN" and nxt is not None:
        amount = 1.0 if nxt.is_("ART", "WEEK", "DAY") else nxt.number
        end = i + 2 if nxt.is_("WEEK", "DAY") else i + 3  # «через неделю», «через 2 недели»
        unit = _at(toks, end - 1)
        if amount is not None and unit is not None and unit.is_("DAY", "WEEK"):
            days = int(amount) * (7 if unit.is_("WEEK") else 1)
            return _later(today, days), end
    return None


def _glue(toks: tuple[Tok, ...], j: int, *, dash: bool) -> int:
    """The index after what may stand between a weekday and its date, from ``j`` on."""
    while j < len(toks) and (
        toks[j].kind == "comma"
        or toks[j].text in _PAIR_GLUE
        or toks[j].is_("AT")
        or (dash and toks[j].kind == "dash")
    ):
        j += 1
    return j


def _before(toks: tuple[Tok, ...], i: int) -> Tok | None:
    """The token before ``toks[i]`` past what may stand between a weekday and its date."""
    k = i - 1
    while k >= 0 and (toks[k].kind == "comma" or toks[k].text in _PAIR_GLUE or toks[k].is_("AT")):
        k -= 1
    return toks[k] if k >= 0 else None


def _against(weekday: int, written: date, today: date) -> tuple[date, ...]:
    """The dates to offer for a weekday that is not ``written``'s: both, in order."""
    shift = (weekday - written.weekday()) % 7
    if shift > _NEAREST:
        shift -= 7
    named = written + timedelta(days=shift)
    if named < today:
        named += timedelta(days=7)
    return tuple(sorted((written, named)))


def _pair(
    toks: tuple[Tok, ...],
    i: int,
    found: tuple[date | None, int],
    *,
    used: set[int],
    today: date,
    lang: Lang,
) -> tuple[DateFound, int] | None:
    """A weekday at ``toks[i]`` with a date right after it, or a date read at ``i`` (``found``)
    with a weekday right after it: what the two say together, and the index after them."""
    tok, (written, end) = toks[i], found
    if tok.concept == "WD" and tok.arg is not None:
        j = _glue(toks, end, dash=False)
        after_it = _calendar(toks, j, today, lang) if j < len(toks) and j not in used else None
        if after_it is None or after_it[0] is None:  # «в пятницу 10.00»: a time, not a date
            return None
        weekday, (written, end) = WEEKDAYS.index(tok.arg), after_it
    else:
        # A weekday after the date, or one before it that a recurrence took («каждую неделю в
        # среду 1 декабря»; one left free would have been read first): used or not.
        j = _glue(toks, end, dash=True)
        named = _at(toks, j)
        if named is None or named.concept != "WD":
            named, j = _before(toks, i), end - 1
        if written is None or named is None or named.concept != "WD" or named.arg is None:
            return None
        weekday, end = WEEKDAYS.index(named.arg), j + 1
    assert written is not None
    if written.weekday() == weekday:
        return DateFound(written, True), end
    return DateFound(None, True, _against(weekday, written, today)), end


def extract_date(toks: tuple[Tok, ...], used: set[int], today: date, lang: Lang) -> DateFound:
    """The first date in ``toks`` (marking its tokens used), whether one was written at all
    (true with no date for an impossible one, 31.11), and the dates to offer when a weekday
    and the date said with it disagree."""
    for i in range(len(toks)):
        if i in used:
            continue
        found = _read_date(toks, i, today, lang)
        if found is not None:
            value, end = found
            paired = _pair(toks, i, found, used=used, today=today, lang=lang)
            if paired is not None:
                reading, end = paired
                used.update(range(i, end))
                return reading
            used.update(range(i, end))
            return DateFound(value, True, by_weekday=toks[i].concept == "WD")
    return DateFound(None, False)


def local_today(now: datetime, tz: ZoneInfo) -> date:
    """Today's date in ``tz``; a naive ``now`` is taken as already local."""
    if now.tzinfo is None:
        return now.date()
    return now.astimezone(tz).date()
