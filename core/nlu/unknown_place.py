"""A building the text names that the catalogue does not have: «в корпусе на Невском»,
«в Невском корпусе», "in the Nevsky building".

Read after ``Places.tag``, so every known building is already one ``BLD`` token: what is
left beside a building noun («корпус», "building") and is no keyword, number or generic
word is the name of a building the site does not know. It is kept, so that the request
asks about it by name instead of booking in any building (issue 25: nothing named is
dropped in silence). Numbered buildings no catalogue has («в 9 корпусе») are not names
here: ``Places`` already keeps their number from being read as a time or a count.
"""

from __future__ import annotations

import re

from core.nlu.analysis import Tok
from core.nlu.place_names import GENERIC_WORDS, NOUNS

__all__ = ["as_written", "unknown_place"]

_LINKS = frozenset({"на", "им", "имени"})  # «корпус на Невском», «корпус имени Попова»
# Words beside a building noun that point at one rather than name it.
_POINTERS = frozenset(
    {"любой", "любом", "любого", "любому", "этом", "этот", "том", "тот", "же", "другом",
     "другой", "другого", "одном", "нашем", "нашего", "наш", "новый",
     "каком", "какой", "котором", "any", "this", "that", "same", "other", "another", "our",
     "which", "what", "one", "your", "my", "мой", "моем", "твоем", "вашем", "on", "at", "by",
     "with", "from", "near", "for", "of", "to", "us", "me", "и", "с", "по", "для", "нам"}
)  # fmt: skip
_LONGEST = 3  # words in a name


def _is_name(tok: Tok) -> bool:
    return (
        tok.kind == "word"
        and tok.concept is None
        and tok.text not in GENERIC_WORDS
        and tok.text not in _POINTERS
    )


def _after(toks: tuple[Tok, ...], noun: int) -> list[str]:
    j, words = noun + 1, list[str]()
    if j < len(toks) and toks[j].text in _LINKS:
        words.append(toks[j].text)
        j += 1
    while j < len(toks) and len(words) < _LONGEST and _is_name(toks[j]):
        words.append(toks[j].text)
        j += 1
    return words if any(w not in _LINKS for w in words) else []


def _before(toks: tuple[Tok, ...], noun: int) -> list[str]:
    k, words = noun - 1, list[str]()
    while k >= 0 and len(words) < _LONGEST - 1 and _is_name(toks[k]):
        words.insert(0, toks[k].text)
        k -= 1
    return words


def unknown_place(tagged: tuple[Tok, ...]) -> str | None:
    """The words of the first building named beside a building noun that is not known
    (lower case, as ``tokenize`` left them), or ``None``."""
    for i, tok in enumerate(tagged):
        if tok.kind != "word" or tok.concept == "BLD" or tok.text not in NOUNS:
            continue
        words = _after(tagged, i) or _before(tagged, i)
        if words:
            return " ".join(words)
    return None


def as_written(text: str, words: str) -> str:
    """``words`` (normalized) as the user wrote them in ``text``: «на Невском»."""
    pattern = r"\s+".join(re.escape(w).replace("е", "[её]") for w in words.split())
    found = re.search(pattern, text, re.IGNORECASE)
    return found.group(0) if found else words
