"""Reminders of bookings (``core.store.reminders``) on MongoDB."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import pymongo
from beanie import Document
from pymongo import IndexModel

from core.errors import DuplicateKey
from scenarios.booking.records import ReminderRecord, ReminderRoom, ReminderState
from storage.errors import translate_errors

__all__ = ["ReminderDocument", "ReminderRepository"]


class ReminderDocument(Document, ReminderRecord):
    class Settings:
        name = "reminders"
        indexes = [
            IndexModel([("run_id", pymongo.ASCENDING)], unique=True),
            IndexModel([("state", pymongo.ASCENDING), ("due_at", pymongo.ASCENDING)]),
        ]


class ReminderRepository:
    """``core.store.ReminderStore`` on MongoDB."""

    async def plan(self, record: ReminderRecord) -> bool:
        try:
            with translate_errors(f"planning the reminder of run {record.run_id}"):
                await ReminderDocument.model_validate(record.__dict__).insert()
        except DuplicateKey:  # the run finished once before (a crash, then a resume)
            return False
        return True

    async def get(self, run_id: str) -> ReminderDocument | None:
        with translate_errors(f"loading the reminder of run {run_id}"):
            return await ReminderDocument.find_one(ReminderDocument.run_id == run_id)

    async def pending(self) -> list[ReminderDocument]:
        with translate_errors("listing pending reminders"):
            return await ReminderDocument.find({"state": ReminderState.PENDING.value}).to_list()

    async def due(self, now: datetime) -> list[ReminderDocument]:
        with translate_errors("listing due reminders"):
            return await ReminderDocument.find(
                {"state": ReminderState.PENDING.value, "due_at": {"$lte": now}}
            ).to_list()

    async def mark(
        self,
        run_id: str,
        *,
        was: ReminderState,
        now: ReminderState,
        message_id: int | None = None,
    ) -> bool:
        change: dict[str, object] = {"state": now.value}
        if message_id is not None:
            change["message_id"] = message_id
        return await self._update(run_id, was, change, what=f"marking the reminder of run {run_id}")

    async def keep_rooms(
        self, run_id: str, *, was: Sequence[ReminderRoom], rooms: Sequence[ReminderRoom]
    ) -> bool:
        change: dict[str, object] = {"rooms": [room.model_dump() for room in rooms]}
        if not rooms:
            change["state"] = ReminderState.CANCELLED.value
        return await self._update(
            run_id,
            ReminderState.PENDING,
            change,
            what=f"cancelling rooms of reminder {run_id}",
            rooms=[room.model_dump() for room in was],
        )

    @staticmethod
    async def _update(
        run_id: str,
        was: ReminderState,
        change: dict[str, object],
        *,
        what: str,
        rooms: list[dict[str, object]] | None = None,
    ) -> bool:
        query: dict[str, object] = {"run_id": run_id, "state": was.value}
        if rooms is not None:
            query["rooms"] = rooms  # the whole list, as read: nobody changed it since
        with translate_errors(what):
            written = await ReminderDocument.get_pymongo_collection().update_one(
                query, {"$set": change}
            )
        return written.modified_count == 1
