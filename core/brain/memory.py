"""Remembered resolutions: page signature → the clicks that got past that page (and, under
``tried:`` + signature, the LLM's clicks that did not: ``Brain`` never replays those).

``BrainMemory`` is the port; ``storage.brain_memory.BrainMemoryRepository`` keeps it in
MongoDB, ``InMemoryBrainMemory`` serves tests and runs without storage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.brain.models import ClickTarget

__all__ = ["BrainMemory", "InMemoryBrainMemory"]


class BrainMemory(Protocol):
    async def recall(self, signature: str) -> list[ClickTarget] | None: ...

    async def remember(
        self, signature: str, clicks: Sequence[ClickTarget], *, note: str
    ) -> None: ...

    async def forget(self, signature: str) -> None: ...


class InMemoryBrainMemory:
    def __init__(self) -> None:
        self.entries: dict[str, list[ClickTarget]] = {}

    async def recall(self, signature: str) -> list[ClickTarget] | None:
        found = self.entries.get(signature)
        return list(found) if found else None

    async def remember(self, signature: str, clicks: Sequence[ClickTarget], *, note: str) -> None:
        self.entries[signature] = list(clicks)

    async def forget(self, signature: str) -> None:
        self.entries.pop(signature, None)
