"""The brain's memory in MongoDB: page signature → the clicks that got past that page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import pymongo
from beanie import Document
from pydantic import BaseModel, Field
from pymongo import IndexModel

from core.errors import DuplicateKey
from core.store.records import ClickTarget, utcnow
from storage.errors import translate_errors

__all__ = ["BrainMemoryEntry", "BrainMemoryRepository", "RememberedClick"]


class RememberedClick(BaseModel):
    role: str
    name: str


class BrainMemoryEntry(Document):
    signature: str
    clicks: list[RememberedClick] = Field(default_factory=list)
    note: str = ""  # the page's heading, for people reading the collection
    uses: int = 0
    updated_at: datetime = Field(default_factory=utcnow)

    class Settings:
        name = "brain_memory"
        indexes = [IndexModel([("signature", pymongo.ASCENDING)], unique=True)]


class BrainMemoryRepository:
    """``core.brain.BrainMemory`` on MongoDB / SecantusDB."""

    async def _get(self, signature: str) -> BrainMemoryEntry | None:
        with translate_errors(f"loading brain memory {signature[:8]}"):
            return await BrainMemoryEntry.find_one(BrainMemoryEntry.signature == signature)

    async def recall(self, signature: str) -> list[ClickTarget] | None:
        entry = await self._get(signature)
        if entry is None or not entry.clicks:
            return None
        with translate_errors(f"counting brain memory use {signature[:8]}"):
            await entry.set({BrainMemoryEntry.uses: entry.uses + 1})
        return [ClickTarget.model_validate(c.model_dump()) for c in entry.clicks]

    async def remember(self, signature: str, clicks: Sequence[ClickTarget], *, note: str) -> None:
        stored = [RememberedClick(role=c.role, name=c.name) for c in clicks]
        for attempt in range(2):  # two first writers race: the loser updates
            entry = await self._get(signature)
            try:
                with translate_errors(f"storing brain memory {signature[:8]}"):
                    if entry is None:
                        await BrainMemoryEntry(
                            signature=signature, clicks=stored, note=note[:200]
                        ).insert()
                    else:
                        entry.clicks, entry.note, entry.updated_at = stored, note[:200], utcnow()
                        await entry.save()
                return
            except DuplicateKey:
                if attempt:
                    raise

    async def forget(self, signature: str) -> None:
        with translate_errors(f"forgetting brain memory {signature[:8]}"):
            await BrainMemoryEntry.find(BrainMemoryEntry.signature == signature).delete()
