"""``Places``: the buildings of one booking system's catalogue, found in analysed tokens.

Built once per catalogue (``Places.from_catalogue``) from what the site shows and what
the profile adds (tables: ``place_names``), with no site-specific code. A building is
recognised by:

* a distinctive word of its name or ``name_en`` («Главный корпус» → «главный»; generic
  words such as «корпус», "building", «на» do not count) in its exact form, by Russian
  stem («в главном», «библиотеку») or with a small typo («чайковскго», unknown words only);
* a profile word (``words``: «чайка», «гк») in its exact form or by stem;
* its whole name as a phrase («в корпусе на Чайковского»), which beats any clash;
* its number or letter next to a building noun, for buildings named «7», «Корпус 3»,
  "Building 7", «Корпус Б»: «7 корпус», «в 7-м корпусе», «корпус №7», «седьмой корпус»,
  "building 7", "7th building", "the seventh building", «в корпусе Б». A bare number is
  no building (but see ``answer``); a number with a building noun that no building has is
  still taken (it is no time or count either), with no code.

A word or stem that fits two buildings names neither. ``tag`` replaces each mention by one
``BLD`` token whose ``arg`` is the code, so that later readers (times, counts, room numbers)
cannot take its numbers. Per-word results are cached in the instance, since several
catalogues may live in one process.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rapidfuzz import process
from rapidfuzz.distance import OSA

from core.nlu.analysis import Tok
from core.nlu.lexicon import engine_lexicon, typo_limit
from core.nlu.numbers import ORDINAL_WORDS
from core.nlu.place_names import GENERIC_WORDS, NOUNS, NameIndex, index_names, key_of
from core.site.models import Building, Catalogue

__all__ = ["Places"]

_UNITS = frozenset({"ROOM", "PEOPLE", "HOUR", "MINUTE", "DAY", "WEEK", "MONTH", "HALF_HOUR"})
_RANGE = frozenset({"TO", "FROM", "AND"})
_FILLERS = frozenset({"AT", "FOR", "IN", "ART"})  # «в», "in", "a" around an answer
_CACHE_LIMIT = 8192


def _names_a_room(toks: tuple[Tok, ...], i: int) -> bool:
    """«аудитория 301» at ``i``: the number before it is no count of rooms."""
    after = toks[i + 1] if i + 1 < len(toks) else None
    return toks[i].concept == "ROOM" and after is not None and after.kind in ("int", "room")


class _Word(NamedTuple):
    code: str | None  # the building this word names on its own
    sure: bool  # by exact form or stem, not by typo
    keyword: bool  # a lexicon word: it keeps its own sense
    key: str  # for phrases: the stem
    noun: bool  # «корпус», "building"
    ordinal: int | None  # «седьмом», "seventh"
    relevant: bool  # may start or carry a mention: a name word, a noun, a phrase's first


class Places:
    """The gazetteer of one catalogue's buildings (see the module docstring)."""

    __slots__ = ("_cache", "_index", "_stem_typos", "_typos")

    def __init__(self, index: NameIndex) -> None:
        self._index = index
        self._typos = tuple(w for w, code in index.words.items() if code and len(w) >= 5)
        self._stem_typos = tuple(s for s, code in index.stems.items() if code and len(s) >= 5)
        self._cache: dict[str, _Word] = {}

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> Places:
        return cls.build(catalogue.buildings)

    @classmethod
    def build(cls, buildings: Iterable[Building]) -> Places:
        return cls(index_names(buildings))

    @classmethod
    def empty(cls) -> Places:
        """No buildings known: nothing is recognised."""
        return cls.build(())

    @property
    def codes(self) -> tuple[str, ...]:
        return self._index.codes

    def word(self, text: str) -> str | None:
        """The building one normalized word names on its own (for tests and tools)."""
        found = self._word(text)
        return None if found.keyword else found.code

    def tag(self, toks: tuple[Tok, ...]) -> tuple[Tok, ...]:
        """``toks`` with every building mention replaced by one ``BLD`` token (arg: code)."""
        first = self._first_relevant(toks) if self._index.codes else None
        if first is None:
            return toks
        i = max(first - 1, 0)  # an ordinal or number may stand before a noun
        out, n, found = list(toks[:i]), len(toks), False
        while i < n:
            hit = self._at(toks, i) if self._may_start(toks, i) else None
            if hit is None:
                out.append(toks[i])
                i += 1
                continue
            end, code = hit
            texts = [t.text for t in toks[i:end]]
            if out and self._is_noun(out[-1]):  # «в корпусе библиотеки»
                texts.insert(0, out.pop().text)
            out.append(Tok("word", " ".join(texts), "BLD", None, code))
            i, found = end, True
        return tuple(out) if found else toks

    def _may_start(self, toks: tuple[Tok, ...], i: int) -> bool:
        tok = toks[i]
        if tok.kind == "word":
            if tok.concept == "BLD":
                return False
            word = self._cache.get(tok.text) or self._word(tok.text)
            if word.relevant:
                return True
            if word.ordinal is None:
                return False
        elif tok.kind not in ("int", "room"):
            return False
        elif tok.text in self._index.phrases:
            return True
        return i + 1 < len(toks) and toks[i + 1].text in NOUNS

    def _first_relevant(self, toks: tuple[Tok, ...]) -> int | None:
        """A cheap look first: most commands name no building (this runs per message)."""
        cache, phrases = self._cache, self._index.phrases
        for i, tok in enumerate(toks):
            if tok.kind == "word":
                if (cache.get(tok.text) or self._word(tok.text)).relevant:
                    return i
            elif tok.text in phrases:
                return i
        return None

    @staticmethod
    def building_in(toks: tuple[Tok, ...]) -> str | None:
        """The first known building among tagged tokens."""
        return next((t.arg for t in toks if t.concept == "BLD" and t.arg), None)

    def answer(self, toks: tuple[Tok, ...]) -> str | None:
        """The building an answer to «В каком корпусе?» names. Here a bare number or letter
        («7», «в седьмом», «Б») is enough, when exactly one building has it."""
        tagged = self.tag(toks)
        if any(t.concept == "BLD" for t in tagged):
            return self.building_in(tagged)
        found: set[str | None] = set()
        for tok in tagged:
            mark = self._mark(tok, cardinal=True)
            if mark is not None and mark in self._index.marks:
                found.add(self._index.marks[mark])
            elif tok.text not in GENERIC_WORDS and tok.concept not in _FILLERS:
                return None
        return found.pop() if len(found) == 1 else None

    # --- readers: each returns (index after the mention, code) -----------------------

    def _at(self, toks: tuple[Tok, ...], i: int) -> tuple[int, str | None] | None:
        return self._phrase(toks, i) or self._named(toks, i) or self._numbered(toks, i)

    def _phrase(self, toks: tuple[Tok, ...], i: int) -> tuple[int, str | None] | None:
        first = self._tok_key(toks[i])
        for keys, code in self._index.phrases.get(first, ()) if first else ():
            end = i + len(keys)
            if end <= len(toks) and all(
                self._tok_key(toks[i + k]) == key for k, key in enumerate(keys)
            ):
                return end, code
        return None

    def _named(self, toks: tuple[Tok, ...], i: int) -> tuple[int, str | None] | None:
        tok = toks[i]
        if tok.kind != "word":
            return None
        word = self._word(tok.text)
        if word.code is None or word.keyword or not (word.sure or tok.concept is None):
            return None
        end = i + 1
        if end < len(toks) and self._is_noun(toks[end]) and self._mark_after(toks, end) is None:
            end += 1  # «главный корпус»
        return end, word.code

    def _numbered(self, toks: tuple[Tok, ...], i: int) -> tuple[int, str | None] | None:
        if self._is_noun(toks[i]):
            after = self._mark_after(toks, i)
            return None if after is None else (after[0], self._index.marks.get(after[1]))
        mark = self._mark_before(toks, i)
        return None if mark is None else (i + 2, self._index.marks.get(mark))

    def _mark_after(self, toks: tuple[Tok, ...], noun: int) -> tuple[int, str] | None:
        """«корпус 7», «корпус №7», «корпус седьмой», «корпус Б», "building seven"."""
        j = noun + 1
        if j < len(toks) and toks[j].concept == "ROOMNO":
            j += 1
        if j >= len(toks):
            return None
        mark = self._mark(toks[j], cardinal=True)
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        if mark is None or (nxt is not None and (nxt.concept in _UNITS or nxt.kind == "dash")
                            and not _names_a_room(toks, j + 1)):  # fmt: skip
            return None  # «в корпусе 2 аудитории»: a count; «7 корпус 10-12»: hours
        if not mark.isdigit() and nxt is not None and nxt.kind in ("int", "clock"):
            return None  # «в корпусе в 18:00»: a preposition, not building «В»
        return j + 1, mark

    def _mark_before(self, toks: tuple[Tok, ...], i: int) -> str | None:
        """«7 корпус», «в 7-м корпусе», «седьмой корпус», "7th building"."""
        tok = toks[i]
        if i + 1 >= len(toks) or not self._is_noun(toks[i + 1]):
            return None
        if tok.kind == "int":
            prev = toks[i - 1] if i > 0 else None
            if len(tok.text) > 3 or (prev is not None and
                                     (prev.concept in _RANGE or prev.kind == "dash")):  # fmt: skip
                return None  # «с 10 до 12 корпус Б»: an hour
            return None if self._mark_after(toks, i + 1) is not None else tok.text
        if tok.kind == "word":
            ordinal = self._word(tok.text).ordinal
            return None if ordinal is None else str(ordinal)
        return None

    def _mark(self, tok: Tok, *, cardinal: bool) -> str | None:
        """A number or a known letter that may name a building."""
        if tok.kind == "int":
            return tok.text if len(tok.text) <= 3 else None
        if tok.kind == "room":
            return tok.text if tok.text in self._index.marks else None
        if tok.kind != "word":
            return None
        ordinal = self._word(tok.text).ordinal
        if ordinal is not None:
            return str(ordinal)
        if cardinal and tok.concept == "NUM" and tok.value is not None:
            return str(int(tok.value))
        return tok.text if tok.text in self._index.marks else None

    # --- words ----------------------------------------------------------------------

    def _is_noun(self, tok: Tok) -> bool:
        return tok.kind == "word" and tok.concept != "BLD" and tok.text in NOUNS

    def _tok_key(self, tok: Tok) -> str | None:
        if tok.kind in ("int", "room"):
            return tok.text
        return self._word(tok.text).key if tok.kind == "word" else None

    def _word(self, text: str) -> _Word:
        found = self._cache.get(text)
        if found is None:
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            found = self._cache[text] = self._look_up(text)
        return found

    def _look_up(self, text: str) -> _Word:
        key = key_of(text)
        code: str | None = None
        sure = True
        if text in self._index.words:
            code = self._index.words[text]
        elif key in self._index.stems:
            code = self._index.stems[key]
        else:
            code, sure = self._typo(text, key), False
        keyword, noun = engine_lexicon().is_keyword(text), text in NOUNS
        relevant = (code is not None and not keyword) or noun or key in self._index.phrases
        return _Word(code, sure, keyword, key, noun, ORDINAL_WORDS.get(text), relevant)

    def _typo(self, text: str, key: str) -> str | None:
        limit = typo_limit(text)
        if not limit:
            return None
        match = process.extractOne(text, self._typos, scorer=OSA.distance, score_cutoff=limit)
        if match is not None:
            return self._index.words[match[0]]
        if len(key) >= 5:
            match = process.extractOne(key, self._stem_typos, scorer=OSA.distance, score_cutoff=1)
            if match is not None:
                return self._index.stems[match[0]]
        return None
