"""Which of a pick's alternatives (``Picks``, ``Conds``) a page is read by, and a table's
column by its header.

The first alternative that reads something on the page as read is used; one later than
the first stands in for it, as a ``Find``'s later candidate does (``Finder.stood_in``):
promoted first in the profile once its step passed its own check. None reading, the
first is used, and what it then fails to read is the page's news ("the site changed"),
never a guess.

A column is the header written as the pick names it (any case, spacing aside), else the
one header holding all its words («Номер» in «Номер брони», «№» in «№ брони»); two
headers holding them are no column at all: which one was meant is not ours to guess."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

__all__ = ["StandIns", "chosen", "column_index"]

P = TypeVar("P")
_WORD = re.compile(r"\w+|[^\w\s]")


class StandIns(Protocol):
    """Where a later alternative that stood in is told (``Finder.stood_in``)."""

    def stood_in(self, path: str, found: object, index: int) -> None: ...


def chosen(
    alternatives: tuple[P, ...], reads: Callable[[P], bool], *, path: str, told: StandIns
) -> P:
    """The first of ``alternatives`` that ``reads``, a later one told to ``told`` as a
    stand-in at ``path``; none reading, the first."""
    index = next((i for i, alternative in enumerate(alternatives) if reads(alternative)), 0)
    told.stood_in(path, alternatives, index)
    return alternatives[index]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("ё", "е"))


def column_index(column: str, titles: Sequence[str]) -> int | None:
    """The index of the column ``column`` names among ``titles`` (see above), or None."""
    wanted = _words(column)
    if not wanted:
        return None
    heads = [_words(title) for title in titles]
    if wanted in heads:
        return heads.index(wanted)
    holding = [i for i, head in enumerate(heads) if set(wanted) <= set(head)]
    return holding[0] if len(holding) == 1 else None
