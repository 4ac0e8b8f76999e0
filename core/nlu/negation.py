"""Negation: which predicate of a command a «не» / "not" / «хватит» denies.

A negation denies the predicate it governs, not the command: «не бронируй» denies booking,
while «не смогу прийти, отмени бронь» denies coming, and «не могли бы вы забронировать»
(a polite request) and «не забудь забронировать» deny nothing of ours. So the scope of a
negation is the word right after it, skipping only words that cannot be its head
(pronouns, «больше», «уже», "please", auxiliaries: «мне больше не нужна», "we don't
really need"). If that word is one of the command's predicates (book, need, cancel,
list…), it is denied; any other word (a verb we do not know, a number, a date) ends the
scope with nothing denied. A cease verb («хватит», «перестань», "stop") or "no" negates
like «не»; a booking noun is a head too ("stop booking 301", "no booking needed").

One pass over the tokens, each looked at a bounded number of times: linear in the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from core.nlu.analysis import Tok

__all__ = ["Denial", "Denied", "deny", "denies_verb"]

Denied = Literal["book", "cancel", "list"]

_NEGATORS = frozenset(
    {"не", "ни", "никогда", "not", "never", "dont", "don't", "doesn't", "doesnt", "won't",
     "wont", "didn't", "didnt", "shouldn't", "mustn't", "nope"}
)  # fmt: skip
_CEASE = frozenset(
    {"хватит", "перестань", "перестаньте", "прекрати", "прекратите", "стоп", "stop", "quit",
     "cease"}
)  # fmt: skip
# «no longer», "no need", "no more": «no» negates only before these
_NO_HEADS = frozenset({"longer", "need", "more"})
# Words a negation reaches over to its head.
_TRANSPARENT = frozenset(
    {"мне", "нам", "мы", "я", "ты", "вы", "меня", "нас", "тебе", "вам", "больше", "уже",
     "еще", "пока", "пожалуйста", "плиз", "совсем", "точно", "теперь", "тогда", "же", "ли",
     "это", "эту", "этот", "i", "we", "you", "me", "us", "it", "please", "really", "actually",
     "anymore", "more", "longer", "ever", "even", "do", "does", "did", "to", "have", "will",
     "go", "ahead", "then", "now", "just", "the", "a", "an", "any", "be", "going", "gonna",
     "bother", "want", "wanna"}
)  # fmt: skip
_NOTHING = frozenset(
    {"ничего", "ничто", "никаких", "никакой", "никакую", "ни", "anything", "nothing", "none"}
)  # fmt: skip
_BOOK = frozenset({"BOOK", "NEED", "PAST"})
_HEADS: dict[str, Denied] = {
    "BOOK": "book",
    "SCHED": "book",  # "don't schedule anything"
    "NEED": "book",
    "PAST": "book",
    "CANCEL": "cancel",
    "DISABLE": "cancel",
    "LIST": "list",
}
# Concepts a negation reaches over too: «хватит каждую среду занимать», «не завтра бронируй»
_TRANSPARENT_CONCEPTS = frozenset(
    {"EVERY", "WD", "WDP", "WEEKLY", "TODAY", "TOMORROW", "AFTER_TOMORROW"}
)
_MOST_SKIPPED = 4  # «мне больше уже не нужна»: a scope never reaches further
# A plug-in's verb is reached over a wish or a need too: «не хочу создавать», «не надо
# открывать», "don't want to create" (the booking words have these as heads of their own).
_MODALS = frozenset(
    {"хочу", "хотим", "хотел", "хотела", "хотелось", "надо", "нужно", "стоит", "буду",
     "будем", "need", "want", "wanna"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Denial:
    denied: Denied
    nothing: bool  # «ничего», "anything": the whole request is refused, nothing concrete


def _is_negator(toks: tuple[Tok, ...], i: int) -> bool:
    text = toks[i].text
    if text in _NEGATORS:
        return True
    return text == "no" and i + 1 < len(toks) and toks[i + 1].text in _NO_HEADS


def _head(toks: tuple[Tok, ...], i: int) -> Denied | None:
    """The predicate a negation at ``i`` governs, if it is one of ours ("no" reaches over a
    room noun: "no room needed")."""
    over_room = toks[i].text == "no"
    for skipped, tok in enumerate(toks[i + 1 : i + 2 + _MOST_SKIPPED]):
        if tok.concept is not None and tok.concept in _HEADS and tok.text not in _TRANSPARENT:
            return _HEADS[tok.concept]
        if tok.concept == "BOOKINGS":  # "stop booking", "no booking needed", "don't bother booking"
            return "book"
        passable = (
            tok.text in _TRANSPARENT
            or tok.concept in _TRANSPARENT_CONCEPTS
            or (over_room and tok.concept == "ROOM")
        )
        if tok.kind != "word" or not passable or skipped == _MOST_SKIPPED:
            return None
    return None


def deny(toks: tuple[Tok, ...]) -> Denial | None:
    """The first predicate a negation in ``toks`` denies, or ``None``."""
    for i, tok in enumerate(toks):
        if tok.kind != "word":
            continue
        cease = tok.text in _CEASE or tok.text == "no"
        if not (cease or _is_negator(toks, i)):
            continue
        denied = _head(toks, i)
        if denied is not None:
            nothing = any(t.text in _NOTHING for t in toks)
            return Denial(denied=denied, nothing=nothing)
    return None


def denies_verb(words: Sequence[str], stems: tuple[str, ...]) -> bool:
    """Whether a negation's scope in ``words`` (lower-case, punctuation stripped) reaches a
    verb starting with one of ``stems``: «не создавай», «не хочу создавать», «не надо
    открывать», "don't want to create", «хватит открывать». For a plug-in's own verbs,
    which the booking words above do not know."""
    for index, word in enumerate(words):
        if word not in _NEGATORS and word not in _CEASE and word != "нельзя":
            continue
        for skipped, following in enumerate(words[index + 1 : index + 2 + _MOST_SKIPPED]):
            if following.startswith(stems):
                return True
            reachable = following in _TRANSPARENT or following in _MODALS
            if not reachable or skipped == _MOST_SKIPPED:
                break
    return False
