"""Normalization and tokenization: text → a flat list of typed raw tokens.

Kinds: ``word`` (letters), ``int`` (digits), ``room`` (digits with a letter, «301а»),
``clock`` ("18:00"), ``dotted`` ("27.11", "18.30", "1.5"), ``slash`` ("11/27"),
``iso`` ("2026-11-27"), ``dash``, ``minus`` (a sign: «-5» at the start of a word, not
after a number, where «18 -20» is still a range) and ``comma``.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

__all__ = ["RawToken", "TokenKind", "normalize", "tokenize"]

TokenKind = Literal[
    "word", "int", "room", "clock", "dotted", "slash", "iso", "dash", "minus", "comma"
]


class RawToken(NamedTuple):
    kind: TokenKind
    text: str


_TOKEN = re.compile(
    r"(?P<iso>\d{4}-\d{1,2}-\d{1,2})"
    r"|(?P<clock>\d{1,2}:\d{2})"
    r"|(?P<dotted>\d{1,2}\.\d{1,2}(?:\.\d{2,4})?)"
    r"|(?P<decimal>\d,5)(?!\d)"
    r"|(?P<slash>\d{1,2}/\d{1,2}(?:/\d{2,4})?)"
    r"|(?P<num>\d+)(?P<suffix>[a-zа-я]*)"
    r"|(?P<word>[a-zа-я]+(?:'[a-z]+)?)"
    r"|(?P<dash>-)"
    r"|(?P<comma>[,&+;])"
    r"|(?P<sign>[№#])"
)
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "ё": "е", "’": "'"})
_ORDINAL_SUFFIXES = frozenset(
    {"st", "nd", "rd", "th", "го", "е", "ое", "ого", "й", "м", "ом", "ой", "ым"}
)
_SPLIT_SUFFIXES = frozenset({"am", "pm", "ч", "h", "x", "х"})
_NUMERIC = frozenset({"int", "clock", "dotted", "slash", "iso"})


def normalize(text: str) -> str:
    """Lower case, «ё» → «е», one kind of dash, "a.m." → "am", ordinals «27-го» → "27"
    (and «7-м» → "7")."""
    text = text.lower().translate(_DASHES)
    text = re.sub(r"\b([ap])\.\s?m\.?", r"\1m", text)
    return re.sub(r"(\d)-(го|е|ое|ого|й|м|ом|ой|ым)\b", r"\1", text)


def _is_minus(text: str, at: int, out: list[RawToken]) -> bool:
    """A dash that is a sign: a digit follows, it starts a word, and no number precedes it."""
    starts_word = at == 0 or not text[at - 1].isalnum()
    after_number = bool(out) and out[-1].kind in _NUMERIC
    return starts_word and not after_number and text[at + 1 : at + 2].isdigit()


def tokenize(text: str) -> list[RawToken]:
    out: list[RawToken] = []
    text = normalize(text)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "suffix" or kind is None:
            kind = "num"
        if kind == "num":
            digits, suffix = m.group("num"), m.group("suffix")
            if not suffix or suffix in _ORDINAL_SUFFIXES:
                out.append(RawToken("int", digits))
            elif suffix in _SPLIT_SUFFIXES:
                out.append(RawToken("int", digits))
                out.append(RawToken("word", suffix))
            elif len(suffix) == 1 and len(digits) >= 3:
                out.append(RawToken("room", digits + suffix))
            else:
                out.append(RawToken("int", digits))
                out.append(RawToken("word", suffix))
        elif kind == "decimal":
            out.append(RawToken("dotted", m.group().replace(",", ".")))
        elif kind == "dash" and _is_minus(text, m.start(), out):
            out.append(RawToken("minus", "-"))
        elif kind == "sign":
            out.append(RawToken("word", "№"))
        else:
            out.append(RawToken(kind, m.group()))  # type: ignore[arg-type]
    return out
