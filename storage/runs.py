"""Scenario runs: the durable state of every conversation-driven job."""

from __future__ import annotations

from datetime import datetime

from storage.active_runs import ActiveRunIndex
from storage.documents import ACTIVE_STATUSES, RunStatus, ScenarioRun, utcnow
from storage.errors import translate_errors

__all__ = ["RunRepository"]

_ACTIVE_VALUES = [s.value for s in ACTIVE_STATUSES]


class RunRepository:
    def __init__(self, index: ActiveRunIndex) -> None:
        self._index = index

    def pin_chat(self, chat_id: int) -> None:
        """This process alone acts in the chat until ``unpin_chat`` (see ActiveRunIndex)."""
        self._index.pin(chat_id)

    def unpin_chat(self, chat_id: int) -> None:
        self._index.unpin(chat_id)

    async def create(self, run: ScenarioRun) -> ScenarioRun:
        if run.status.active:
            await self._index.add(run.chat_id, run.short_id)
        with translate_errors(f"creating run {run.short_id}"):
            await run.insert()
        return run

    async def get(self, short_id: str) -> ScenarioRun | None:
        with translate_errors(f"loading run {short_id}"):
            return await ScenarioRun.find_one(ScenarioRun.short_id == short_id)

    async def save(self, run: ScenarioRun) -> ScenarioRun:
        """Write the whole run; raises ``ConcurrencyError`` if it changed since it was read."""
        run.updated_at = utcnow()
        if run.status.active:
            await self._index.add(run.chat_id, run.short_id)
        with translate_errors(f"saving run {run.short_id}"):
            await run.replace()
        if not run.status.active:
            await self._index.remove(run.chat_id, run.short_id)
        return run

    async def active_for_chat(self, chat_id: int) -> list[ScenarioRun]:
        indexed = await self._index.members(chat_id)
        if indexed is None:
            await self.rebuild_index()
            return await self._active_in_mongo(chat_id)
        if not indexed:
            return []
        with translate_errors(f"listing active runs of chat {chat_id}"):
            found = await (
                ScenarioRun.find({"short_id": {"$in": sorted(indexed)}})
                .sort("+created_at")
                .to_list()
            )
        # Only ids whose run is stored and finished are dropped: a run being created
        # right now is indexed before it is stored and must keep its id.
        await self._index.remove(
            chat_id, *(r.short_id for r in found if not r.status.active or r.chat_id != chat_id)
        )
        return [r for r in found if r.status.active and r.chat_id == chat_id]

    async def _active_in_mongo(self, chat_id: int) -> list[ScenarioRun]:
        with translate_errors(f"listing active runs of chat {chat_id}"):
            return await (
                ScenarioRun.find(
                    ScenarioRun.chat_id == chat_id, {"status": {"$in": _ACTIVE_VALUES}}
                )
                .sort("+created_at")
                .to_list()
            )

    async def rebuild_index(self) -> None:
        """Index every active run stored in MongoDB (at start-up, or after Redis lost it)."""
        with translate_errors("listing active runs"):
            active = await ScenarioRun.find({"status": {"$in": _ACTIVE_VALUES}}).to_list()
        await self._index.rebuild((r.chat_id, r.short_id) for r in active)

    async def with_status(self, status: RunStatus) -> list[ScenarioRun]:
        with translate_errors(f"listing {status} runs"):
            return (
                await ScenarioRun.find(ScenarioRun.status == status).sort("+created_at").to_list()
            )

    async def expired(self, now: datetime) -> list[ScenarioRun]:
        """Runs waiting for an answer whose time ran out."""
        with translate_errors("listing expired runs"):
            return await ScenarioRun.find(
                {"status": {"$in": [RunStatus.COLLECTING.value, RunStatus.WAITING.value]}},
                {"expires_at": {"$lte": now}},
            ).to_list()

    async def recent_for_chat(self, chat_id: int, *, limit: int = 10) -> list[ScenarioRun]:
        with translate_errors(f"listing runs of chat {chat_id}"):
            return await (
                ScenarioRun.find(ScenarioRun.chat_id == chat_id)
                .sort("-created_at")
                .limit(limit)
                .to_list()
            )
