"""The NLU corpus (``tests/nlu/corpus/*.yaml``, one file per category) and its measure.

Each entry is a command with the decision a careful reader expects (``intent`` and the
decision JSON's ``slots``), at a fixed moment (Mon 2026-11-23 10:00 Europe/Moscow) on
the reference portal's buildings. A fixed rule splits it into two halves: an entry whose
text's CRC-32 is even is for **tuning** (look at its misses, change the parser), an odd
one is **held back** (only measured). The rule does not depend on the order of the
files or on anything the parser does.

Intent accuracy: the share of entries whose intent is the expected one. Slot accuracy:
over every slot name that either the expected or the parsed decision has, the share
equal in both (``unknown_place`` compared without case), so a slot missed, one made up
and one wrong all count. ``exact`` is the share of entries right in intent and every slot.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml

from core.nlu import Decision
from scenarios.booking.vocabulary import BookingIntent
from tests.support.reading import decide

__all__ = ["CORPUS", "Entry", "Score", "entries", "half_of", "measure", "refusals"]

CORPUS = Path(__file__).parent / "corpus"
Half = Literal["tuning", "held-back"]
_BOOKS = frozenset({BookingIntent.BOOK_ROOMS, BookingIntent.SCHEDULE_BOOKING})


@dataclass(frozen=True, slots=True)
class Entry:
    category: str
    text: str
    intent: str
    slots: dict[str, object]

    @property
    def half(self) -> Half:
        return half_of(self.text)


def half_of(text: str) -> Half:
    return "tuning" if zlib.crc32(text.encode()) % 2 == 0 else "held-back"


def entries(folder: Path = CORPUS) -> list[Entry]:
    found: list[Entry] = []
    for path in sorted(folder.glob("*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")):
            found.append(
                Entry(
                    category=path.stem,
                    text=str(item["text"]),
                    intent=item["intent"],
                    slots=dict(item.get("slots") or {}),
                )
            )
    return found


def _same(name: str, expected: object, got: object) -> bool:
    if name == "unknown_place" and isinstance(expected, str) and isinstance(got, str):
        return expected.casefold() == got.casefold()
    return expected == got


@dataclass
class Score:
    commands: int = 0
    intents: int = 0
    slots: int = 0
    slots_right: int = 0
    exact: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, entry: Entry, decision: Decision) -> None:
        got: dict[str, object] = decision.to_json()["slots"]  # type: ignore[assignment]
        names = set(entry.slots) | set(got)
        right = sum(_same(n, entry.slots.get(n), got.get(n)) for n in names)
        self.commands += 1
        self.intents += decision.intent == entry.intent
        self.slots += len(names)
        self.slots_right += right
        if decision.intent == entry.intent and right == len(names):
            self.exact += 1
        else:
            self.misses.append(
                f"{entry.text!r}: {decision.intent} {got} (expected {entry.intent} {entry.slots})"
            )

    @property
    def intent_share(self) -> float:
        return self.intents / self.commands if self.commands else 1.0

    @property
    def slot_share(self) -> float:
        return self.slots_right / self.slots if self.slots else 1.0


def measure(corpus: Iterable[Entry]) -> dict[tuple[str, Half], Score]:
    """Scores by (category, half), plus ("all", half) for each half."""
    scores: dict[tuple[str, Half], Score] = {}
    for entry in corpus:
        decision = decide(entry.text)
        for key in ((entry.category, entry.half), ("all", entry.half)):
            scores.setdefault(key, Score()).add(entry, decision)
    return scores


def refusals(corpus: Iterable[Entry]) -> list[str]:
    """The texts meant not to book or schedule that the parser would book or schedule."""
    return [
        e.text
        for e in corpus
        if e.intent not in _BOOKS and e.category == "negations" and decide(e.text).intent in _BOOKS
    ]
