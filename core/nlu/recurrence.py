"""Weekly recurrence: «каждый четверг», «по понедельникам и средам», "every Friday",
"weekly on Mondays", "every Monday and Wednesday", «по будням», "every day"."""

from __future__ import annotations

from core.nlu.analysis import Tok
from core.nlu.decision import WEEKDAYS, Recurrence, Weekday

__all__ = ["extract_recurrence", "weekdays_from"]

_LIST_GLUE = frozenset({"AND", "AT", "TO"})
# what may begin a list of weekdays
_STARTS = frozenset({"EVERY", "WEEKLY", "WDP", "DAILY", "WORKDAYS", "WEEKENDS"})
_GLUE_WORDS = frozenset({"on", "по", "в", "во", ","})
_WORKDAYS: tuple[Weekday, ...] = WEEKDAYS[:5]
_WEEKENDS: tuple[Weekday, ...] = WEEKDAYS[5:]


def _group(tok: Tok) -> tuple[Weekday, ...]:
    if tok.is_("WD", "WDP") and tok.arg is not None:
        return (WEEKDAYS[WEEKDAYS.index(tok.arg)],)
    if tok.is_("DAILY"):
        return WEEKDAYS
    if tok.is_("WORKDAYS"):
        return _WORKDAYS
    if tok.is_("WEEKENDS"):
        return _WEEKENDS
    return ()


def weekdays_from(toks: tuple[Tok, ...], i: int, used: set[int]) -> tuple[list[Weekday], int]:
    """Weekdays listed from ``toks[i]`` on («понедельник, среду и пятницу»), and the end."""
    days: list[Weekday] = []
    j, last = i, i
    while j < len(toks):
        tok = toks[j]
        group = _group(tok)
        if group and j not in used:
            days.extend(group)
            last = j + 1
        elif not (tok.concept in _LIST_GLUE or tok.text in _GLUE_WORDS or tok.kind == "comma"):
            break
        j += 1
    return days, last


def extract_recurrence(toks: tuple[Tok, ...], used: set[int]) -> Recurrence | None:
    """Weekly recurrence in ``toks``; marks the tokens it reads in ``used``."""
    days: list[Weekday] = []
    weekly = False
    i = 0
    while i < len(toks):
        tok = toks[i]
        concept = tok.concept  # read once: this loop runs per token
        if i in used or concept not in _STARTS:
            i += 1
            continue
        prev = toks[i - 1] if i > 0 else None
        starts_list = concept in ("WDP", "DAILY") or (
            concept in ("WORKDAYS", "WEEKENDS")
            and prev is not None
            and (prev.text in ("по", "on") or prev.is_("EVERY"))
        )
        if concept in ("EVERY", "WEEKLY"):
            weekly = weekly or concept == "WEEKLY"
            found, end = weekdays_from(toks, i + 1, used)
        elif starts_list:
            found, end = weekdays_from(toks, i, used)
        else:
            i += 1
            continue
        if found or tok.is_("WEEKLY"):
            used.update(range(i, max(end, i + 1)))
            days.extend(found)
        i = max(end, i + 1)
    if weekly and not days:
        for i, tok in enumerate(toks):  # "weekly booking ... on Thursday"
            if tok.is_("WD") and i not in used:
                days.extend(_group(tok))
                used.add(i)
    if not days:
        return None
    ordered = [d for d in WEEKDAYS if d in set(days)]
    return Recurrence(freq="weekly", weekdays=ordered)
