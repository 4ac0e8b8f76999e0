"""How a catalogue's buildings are named: their names and profile words → lookup tables
(word, stem, phrase, number or letter → building code) for ``Places``.

Nothing here knows a site: a name's distinctive words are those that are not generic
(«корпус», "building", «на»); its number («7», «Корпус №7», "Building 7") or, when it has
no distinctive word, its letter («Корпус Б») is its mark. A word, stem or mark claimed by
two buildings equally names neither; a one-word whole name («Библиотека») beats a word of
a longer name («Библиотека 2»), and a whole name as a phrase is matched before its words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from core.nlu.lexicon import engine_lexicon, stem
from core.nlu.tokens import tokenize
from core.site.models import Building

__all__ = ["GENERIC_WORDS", "NOUNS", "NameIndex", "index_names", "key_of"]

# Building nouns: a number or letter beside one names a building («7 корпус», "building 7").
NOUNS = frozenset(
    ("корпус", "корпуса", "корпусе", "корпусу", "корпусом", "корп", "здание", "здания",
     "зданию", "зданием", "здании", "building", "bldg", "house", "hall")
)  # fmt: skip
# Words that name no building in particular: never distinctive.
GENERIC_WORDS = NOUNS | frozenset(
    ("корпусы", "корпусов", "корпусах", "корпусам", "buildings", "на", "в", "во", "им",
     "the", "of", "№", "no")
)  # fmt: skip
_SIGNS = frozenset({"№", "no"})
_SHORT = 2  # a name part this short («Б») is a mark, read only beside a building noun
_STEM_MIN = 4

Phrase = tuple[tuple[str, ...], str]  # keys (stems) → code
# word → {code: priority}
_Claims = dict[str, dict[str, int]]


class NameIndex(NamedTuple):
    codes: tuple[str, ...]
    words: dict[str, str | None]  # exact form → code (None: two buildings claim it)
    stems: dict[str, str | None]
    phrases: dict[str, tuple[Phrase, ...]]  # by first key, longest first
    marks: dict[str, str | None]  # "7", "б" → code


def key_of(text: str) -> str:
    """A word as phrases compare it: its stem (a lexicon keyword as is)."""
    return text if engine_lexicon().is_keyword(text) else stem(text)


def _stems_well(word: str) -> bool:
    """A Cyrillic word whose stem is long enough to tell it («главн», not «лаб»)."""
    return any("а" <= ch <= "я" for ch in word) and len(stem(word)) >= _STEM_MIN


class _Builder:
    def __init__(self) -> None:
        self.words: _Claims = {}
        self.stems: _Claims = {}
        self.marks: _Claims = {}
        self.phrases: dict[tuple[str, ...], set[str]] = {}

    def claim_word(self, word: str, code: str, priority: int) -> None:
        _claim(self.words, word, code, priority)
        if _stems_well(word):
            _claim(self.stems, stem(word), code, priority)

    def phrase(self, texts: list[str], code: str) -> None:
        self.phrases.setdefault(tuple(key_of(w) for w in texts), set()).add(code)

    def name(self, name: str, code: str) -> None:
        texts = [t.text for t in tokenize(name) if t.kind in ("word", "int", "room")]
        distinct = [w for w in texts if w not in GENERIC_WORDS and len(w) > _SHORT
                    and not w.isdigit()]  # fmt: skip
        marks = [w for w in texts if w.isdigit() or not distinct
                 and w not in NOUNS and w not in _SIGNS]  # fmt: skip
        if len(marks) == 1:
            _claim(self.marks, marks[0], code, 1)
        for word in distinct:
            self.claim_word(word, code, 2 if len(texts) == 1 else 1)
        if len(texts) > 1 and (distinct or len(marks) > 1):  # or «Корпус 2А»
            self.phrase(texts, code)

    def profile_word(self, word: str, code: str) -> None:
        texts = [t.text for t in tokenize(word)]
        if len(texts) == 1:
            self.claim_word(texts[0], code, 1)
        elif texts:
            self.phrase(texts, code)


def _claim(claims: _Claims, word: str, code: str, priority: int) -> None:
    held = claims.setdefault(word, {})
    held[code] = max(held.get(code, 0), priority)


def _resolve(claims: _Claims) -> dict[str, str | None]:
    """Each word's building, or ``None`` where two buildings claim it equally."""
    out: dict[str, str | None] = {}
    for word, held in claims.items():
        top = max(held.values())
        winners = [code for code, priority in held.items() if priority == top]
        out[word] = winners[0] if len(winners) == 1 else None
    return out


def index_names(buildings: Iterable[Building]) -> NameIndex:
    builder = _Builder()
    codes: list[str] = []
    for building in buildings:
        codes.append(building.code)
        for name in (building.name, building.name_en):
            builder.name(name, building.code)
        for word in building.words:
            builder.profile_word(word, building.code)
    by_first: dict[str, list[Phrase]] = {}
    for keys, owners in builder.phrases.items():
        if len(owners) == 1:
            by_first.setdefault(keys[0], []).append((keys, next(iter(owners))))
    phrases = {k: tuple(sorted(v, key=lambda p: -len(p[0]))) for k, v in by_first.items()}
    return NameIndex(
        tuple(codes), _resolve(builder.words), _resolve(builder.stems), phrases,
        _resolve(builder.marks),
    )  # fmt: skip
