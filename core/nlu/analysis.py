"""Analysis: raw tokens → tokens with senses (phrases joined, compound numbers merged)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from core.commands import Lang
from core.nlu.lexicon import Lexicon, Sense, engine_lexicon
from core.nlu.numbers import MULTIPLIERS
from core.nlu.tokens import RawToken, TokenKind, tokenize

__all__ = ["HUGE", "Tok", "analyze", "detect_lang", "forget_analyses", "has_cyrillic"]

# A run of more digits than this reads as ``HUGE``: no count, capacity or day offset is
# anywhere near it, and a float of 309+ digits would be infinite (``int()`` of it raises).
_MOST_DIGITS = 15
HUGE = float(10**_MOST_DIGITS)


@dataclass(frozen=True, slots=True)
class Tok:
    kind: TokenKind
    text: str
    concept: str | None = None
    value: float | None = None
    arg: str | None = None

    @property
    def number(self) -> float | None:
        """The numeric value of a digit token or a number word."""
        if self.kind == "int":
            return float(self.text) if len(self.text) <= _MOST_DIGITS else HUGE
        if self.concept == "NUM":
            return self.value
        return None

    def is_(self, *concepts: str) -> bool:
        return self.concept in concepts


def has_cyrillic(text: str) -> bool:
    return any("а" <= ch <= "я" or ch == "ё" for ch in text.lower())


def detect_lang(text: str) -> Lang:
    """``ru`` if the text has any Cyrillic letter, else ``en``."""
    return "ru" if has_cyrillic(text) else "en"


def _with_sense(kind: TokenKind, text: str, sense: Sense | None) -> Tok:
    if sense is None:
        return Tok(kind, text)
    return Tok(kind, text, sense.concept, sense.value, sense.arg)


def analyze(text: str, lexicon: Lexicon | None = None) -> tuple[Tok, ...]:
    """``text`` as tokens with their senses in ``lexicon`` (a job's; none: the engine's)."""
    return _analyze(text, lexicon or engine_lexicon())


def forget_analyses() -> None:
    """Drop the whole-text cache (a cold-start measurement)."""
    _analyze.cache_clear()


@lru_cache(maxsize=4096)
def _analyze(text: str, lexicon: Lexicon) -> tuple[Tok, ...]:
    raw = tokenize(text)
    words = [t.text for t in raw]
    out: list[Tok] = []
    # Equal raw tokens share one Tok (it is immutable): long texts repeat their words and
    # numbers, and building a frozen dataclass is most of the cost of a token.
    made: dict[RawToken, Tok] = {}
    i = 0
    while i < len(raw):
        kind, word = raw[i]
        phrase = lexicon.phrase_at(words, i) if kind == "word" else None  # all words
        if phrase is not None:
            length, sense = phrase
            out.append(_with_sense("word", " ".join(words[i : i + length]), sense))
            i += length
            continue
        tok = made.get(raw[i])
        if tok is None:
            known = lexicon.sense_of(word) if kind == "word" else None
            tok = made[raw[i]] = _with_sense(kind, word, known)
        out.append(tok)
        i += 1
    return tuple(_merge_compound_numbers(out))


def _merge_compound_numbers(toks: list[Tok]) -> list[Tok]:
    """«двадцать пять» / "twenty-five" → one number word 25; «две тысячи», "5 million" →
    2000, 5000000."""
    out: list[Tok] = []
    for tok in toks:
        if tok.concept != "NUM" or tok.value is None:  # only a number word joins what precedes
            out.append(tok)
            continue
        prev = out[-1] if out else None
        prev2 = out[-2] if len(out) > 1 else None
        times = prev.number if prev is not None else None
        if tok.value in MULTIPLIERS and times is not None:
            assert prev is not None
            value = min(times * tok.value, HUGE)  # «миллион миллионов…» stays finite
            out[-1] = Tok("word", f"{prev.text} {tok.text}", "NUM", value)
            continue
        if tok.value < 10:
            if _is_tens(prev):
                assert prev is not None and prev.value is not None
                out[-1] = Tok("word", f"{prev.text} {tok.text}", "NUM", prev.value + tok.value)
                continue
            if prev is not None and prev.kind == "dash" and _is_tens(prev2):
                assert prev2 is not None and prev2.value is not None
                out[-2:] = [Tok("word", f"{prev2.text}-{tok.text}", "NUM", prev2.value + tok.value)]
                continue
        out.append(tok)
    return out


def _is_tens(tok: Tok | None) -> bool:
    return (
        tok is not None
        and tok.concept == "NUM"
        and tok.value is not None
        and tok.value >= 20
        and tok.value % 10 == 0
        and tok.value < 100
    )
