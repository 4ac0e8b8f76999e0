"""Scenario runs: the durable state of every conversation-driven job."""

from __future__ import annotations

from datetime import datetime

from storage.documents import ACTIVE_STATUSES, RunStatus, ScenarioRun, utcnow
from storage.errors import translate_errors

__all__ = ["RunRepository"]


class RunRepository:
    async def create(self, run: ScenarioRun) -> ScenarioRun:
        with translate_errors(f"creating run {run.short_id}"):
            await run.insert()
        return run

    async def get(self, short_id: str) -> ScenarioRun | None:
        with translate_errors(f"loading run {short_id}"):
            return await ScenarioRun.find_one(ScenarioRun.short_id == short_id)

    async def save(self, run: ScenarioRun) -> ScenarioRun:
        """Write the whole run; raises ``ConcurrencyError`` if it changed since it was read."""
        run.updated_at = utcnow()
        with translate_errors(f"saving run {run.short_id}"):
            await run.replace()
        return run

    async def active_for_chat(self, chat_id: int) -> list[ScenarioRun]:
        with translate_errors(f"listing active runs of chat {chat_id}"):
            return await (
                ScenarioRun.find(
                    ScenarioRun.chat_id == chat_id,
                    {"status": {"$in": [s.value for s in ACTIVE_STATUSES]}},
                )
                .sort("+created_at")
                .to_list()
            )

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
