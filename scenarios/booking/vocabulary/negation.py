"""Which of the booking job's predicates a negation denies: booking («не бронируй», "no
booking needed", "stop booking 301"), cancelling («не отменяй») or listing («не
показывай»). The scope rules are the engine's (``core.nlu.negation``); a booking noun is a
head too, and "no" reaches over a room noun ("no room needed")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.nlu.analysis import Tok
from core.nlu.negation import (
    CEASE,
    MOST_SKIPPED,
    NOTHING,
    TRANSPARENT,
    TRANSPARENT_CONCEPTS,
    is_negator,
)

__all__ = ["Denial", "Denied", "deny"]

Denied = Literal["book", "cancel", "list"]

_HEADS: dict[str, Denied] = {
    "BOOK": "book",
    "SCHED": "book",  # "don't schedule anything"
    "NEED": "book",
    "PAST": "book",
    "CANCEL": "cancel",
    "DISABLE": "cancel",
    "LIST": "list",
}


@dataclass(frozen=True, slots=True)
class Denial:
    denied: Denied
    nothing: bool  # «ничего», "anything": the whole request is refused, nothing concrete


def _head(toks: tuple[Tok, ...], i: int) -> Denied | None:
    """The predicate a negation at ``i`` governs, if it is one of ours ("no" reaches over a
    room noun: "no room needed")."""
    over_room = toks[i].text == "no"
    for skipped, tok in enumerate(toks[i + 1 : i + 2 + MOST_SKIPPED]):
        if tok.concept is not None and tok.concept in _HEADS and tok.text not in TRANSPARENT:
            return _HEADS[tok.concept]
        if tok.concept == "BOOKINGS":  # "stop booking", "no booking needed", "don't bother booking"
            return "book"
        passable = (
            tok.text in TRANSPARENT
            or tok.concept in TRANSPARENT_CONCEPTS
            or (over_room and tok.concept == "ROOM")
        )
        if tok.kind != "word" or not passable or skipped == MOST_SKIPPED:
            return None
    return None


def deny(toks: tuple[Tok, ...]) -> Denial | None:
    """The first predicate a negation in ``toks`` denies, or ``None``."""
    for i, tok in enumerate(toks):
        if tok.kind != "word":
            continue
        cease = tok.text in CEASE or tok.text == "no"
        if not (cease or is_negator(toks, i)):
            continue
        denied = _head(toks, i)
        if denied is not None:
            nothing = any(t.text in NOTHING for t in toks)
            return Denial(denied=denied, nothing=nothing)
    return None
