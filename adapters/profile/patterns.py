"""A profile's regular expressions, compiled and run here only, so that no text a site
shows can hang the bot on one.

Python's ``re`` backtracks without limit: ``(a+)+$`` against forty «a» and a «b» runs
for hours, holding the event loop (and the GIL) the whole time. A profile's regexes
are written by hand, by ``clubman learn`` or by a heal, and the text they run on is
the site's, so neither side is trusted. They are compiled with the ``regex`` package
and every search runs with a time limit:

- ``regex`` takes ``re``'s syntax and its Unicode classes (``\\w`` matches Cyrillic,
  ``\\s`` a no-break space), so every profile reads as before. RE2, linear in time,
  was not taken: its ``\\w``, ``\\s`` and ``\\d`` are ASCII only, which would change
  what the shipped profiles read on Russian pages without a word of warning.
- ``regex`` already refuses the textbook case (``(a+)+$`` on 40 «a» and a «b»: 0.6 ms,
  measured), but not every one (``(a|aa)+$`` on 60 «a» and a «b» runs past any
  limit); the limit covers the rest. A profile's search on 11 kB of a page takes
  1-30 µs (measured on the shipped profiles' regexes), so half a second is 10 000
  times what a sound regex needs and still short enough for a person waiting. ``regex``
  counts the process's CPU time, not the clock's: at a load of 12 on two cores the
  half second ended after 1.0-1.8 s (measured).

A search past the limit raises ``SlowPattern``, a ``ProfileInvalid``: the profile is at
fault and an operator must rewrite it; it is never read as "the page has no such text".
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex

from adapters.profile.errors import SlowPattern

__all__ = ["TIME_LIMIT_S", "Match", "Pattern", "check", "compiled", "first_group", "search"]

TIME_LIMIT_S = 0.5

Match = regex.Match[str]


class Pattern:
    """One profile regex, compiled; ``search`` is the only way it runs."""

    __slots__ = ("_compiled", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._compiled = regex.compile(text)

    @property
    def groups(self) -> int:
        return self._compiled.groups

    def search(self, text: str) -> Match | None:
        """The first match in ``text`` or None; ``SlowPattern`` past the time limit."""
        try:
            return self._compiled.search(text, timeout=TIME_LIMIT_S)
        except TimeoutError:
            raise SlowPattern(self.text, seconds=TIME_LIMIT_S, length=len(text)) from None

    def __repr__(self) -> str:
        return f"Pattern({self.text!r})"


def check(text: Any) -> str:
    """``text`` when it is a regex this module compiles; ``ValueError`` saying why not
    (the profile model's check, so a bad one is refused at load, naming its line)."""
    if not isinstance(text, str):
        raise ValueError("a regular expression must be text")
    try:
        compiled(text)
    except regex.error as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None
    return text


@lru_cache(maxsize=512)
def compiled(text: str) -> Pattern:
    """The compiled profile regex ``text`` (kept: a grid runs the same few on every cell)."""
    return Pattern(text)


def search(pattern: str, text: str) -> Match | None:
    """``pattern`` (a profile's regex) searched for in ``text``, within the time limit."""
    return compiled(pattern).search(text)


def first_group(found: Match) -> str:
    """A profile regex's value: its first group, or the whole match without a group."""
    return found.group(1) if found.re.groups else found.group()
