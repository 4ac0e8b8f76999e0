"""One contract for the brain's memory, run against every backend (memory, MongoDB)."""

from __future__ import annotations

import pytest

from core.brain import BrainMemory, ClickTarget, InMemoryBrainMemory
from storage import Storage

TICK = ClickTarget(role="checkbox", name="Я ознакомлен(а) с правилами")
GO = ClickTarget(role="button", name="Продолжить")


@pytest.fixture(params=["memory", "mongo"])
def backend(request: pytest.FixtureRequest, storage: Storage) -> BrainMemory:
    if request.param == "memory":
        return InMemoryBrainMemory()
    return storage.brain_memory


async def test_remember_recall_update_forget(backend: BrainMemory) -> None:
    assert await backend.recall("sig") is None
    await backend.remember("sig", [TICK, GO], note="Правила")
    assert await backend.recall("sig") == [TICK, GO]
    await backend.remember("sig", [GO], note="Правила")  # a newer resolution replaces it
    assert await backend.recall("sig") == [GO]
    assert await backend.recall("other") is None
    await backend.forget("sig")
    await backend.forget("sig")  # forgetting twice is fine
    assert await backend.recall("sig") is None
