"""Negation: which predicate of a command a «не» / "not" / «хватит» denies.

A negation denies the predicate it governs, not the command: «не бронируй» denies booking,
while «не смогу прийти, отмени бронь» denies coming, and «не могли бы вы забронировать»
(a polite request) and «не забудь забронировать» deny nothing of ours. So the scope of a
negation is the word right after it, skipping only words that cannot be its head
(pronouns, «больше», «уже», "please", auxiliaries: «мне больше не нужна», "we don't
really need"). If that word is one of a job's predicates, it is denied; any other word
(a verb we do not know, a number, a date) ends the scope with nothing denied. A cease verb
(«хватит», «перестань», "stop") or "no" negates like «не».

These are the engine's pieces; a job says which of its words are predicates (the booking
job: ``scenarios.booking.vocabulary.negation``), or checks its verbs with ``denies_verb``.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.nlu.analysis import Tok

__all__ = [
    "CEASE",
    "MOST_SKIPPED",
    "NEGATORS",
    "NOTHING",
    "TRANSPARENT",
    "TRANSPARENT_CONCEPTS",
    "denies_verb",
    "is_negator",
]

NEGATORS = frozenset(
    {"не", "ни", "никогда", "not", "never", "dont", "don't", "doesn't", "doesnt", "won't",
     "wont", "didn't", "didnt", "shouldn't", "mustn't", "nope"}
)  # fmt: skip
CEASE = frozenset(
    {"хватит", "перестань", "перестаньте", "прекрати", "прекратите", "стоп", "stop", "quit",
     "cease"}
)  # fmt: skip
# «no longer», "no need", "no more": «no» negates only before these
_NO_HEADS = frozenset({"longer", "need", "more"})
# Words a negation reaches over to its head.
TRANSPARENT = frozenset(
    {"мне", "нам", "мы", "я", "ты", "вы", "меня", "нас", "тебе", "вам", "больше", "уже",
     "еще", "пока", "пожалуйста", "плиз", "совсем", "точно", "теперь", "тогда", "же", "ли",
     "это", "эту", "этот", "i", "we", "you", "me", "us", "it", "please", "really", "actually",
     "anymore", "more", "longer", "ever", "even", "do", "does", "did", "to", "have", "will",
     "go", "ahead", "then", "now", "just", "the", "a", "an", "any", "be", "going", "gonna",
     "bother", "want", "wanna"}
)  # fmt: skip
NOTHING = frozenset(
    {"ничего", "ничто", "никаких", "никакой", "никакую", "ни", "anything", "nothing", "none"}
)  # fmt: skip
# Concepts a negation reaches over too: «хватит каждую среду занимать», «не завтра бронируй»
TRANSPARENT_CONCEPTS = frozenset(
    {"EVERY", "WD", "WDP", "WEEKLY", "TODAY", "TOMORROW", "AFTER_TOMORROW"}
)
MOST_SKIPPED = 4  # «мне больше уже не нужна»: a scope never reaches further
# A plug-in's verb is reached over a wish or a need too: «не хочу создавать», «не надо
# открывать», "don't want to create" (the booking words have these as heads of their own).
_MODALS = frozenset(
    {"хочу", "хотим", "хотел", "хотела", "хотелось", "надо", "нужно", "стоит", "буду",
     "будем", "need", "want", "wanna"}
)  # fmt: skip


def is_negator(toks: tuple[Tok, ...], i: int) -> bool:
    """Whether the word at ``i`` is «не», "not"… or a "no" before "longer", "need", "more"."""
    text = toks[i].text
    if text in NEGATORS:
        return True
    return text == "no" and i + 1 < len(toks) and toks[i + 1].text in _NO_HEADS


def denies_verb(words: Sequence[str], stems: tuple[str, ...]) -> bool:
    """Whether a negation's scope in ``words`` (lower-case, punctuation stripped) reaches a
    verb starting with one of ``stems``: «не создавай», «не хочу создавать», «не надо
    открывать», "don't want to create", «хватит открывать». For a plug-in's own verbs,
    which the booking words above do not know."""
    for index, word in enumerate(words):
        if word not in NEGATORS and word not in CEASE and word != "нельзя":
            continue
        for skipped, following in enumerate(words[index + 1 : index + 2 + MOST_SKIPPED]):
            if following.startswith(stems):
                return True
            reachable = following in TRANSPARENT or following in _MODALS
            if not reachable or skipped == MOST_SKIPPED:
                break
    return False
