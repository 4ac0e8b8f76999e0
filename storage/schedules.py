"""Recurring booking schedules: the source of truth the timer is rebuilt from."""

from __future__ import annotations

from collections.abc import Callable

from beanie import PydanticObjectId

from core.errors import ConcurrencyError
from scenarios.booking.records import Schedule, ScheduleStatus
from storage.documents import ScheduleDocument, stored
from storage.errors import translate_errors

__all__ = ["ScheduleRepository"]


def _live() -> dict[str, object]:
    return {"status": {"$in": [ScheduleStatus.ACTIVE.value, ScheduleStatus.PAUSED.value]}}


class ScheduleRepository:
    """``core.store.ScheduleRecords`` on MongoDB."""

    async def create(self, schedule: Schedule) -> ScheduleDocument:
        """Store a new schedule; returns it as the document later saves must be given."""
        document = (
            schedule
            if isinstance(schedule, ScheduleDocument)
            else ScheduleDocument.model_validate(schedule.__dict__ | {"id": None})
        )
        with translate_errors("creating a schedule"):
            await document.insert()
        return document

    async def get(self, schedule_id: str) -> ScheduleDocument | None:
        if not PydanticObjectId.is_valid(schedule_id):
            return None
        with translate_errors(f"loading schedule {schedule_id}"):
            return await ScheduleDocument.get(PydanticObjectId(schedule_id))

    async def save(self, schedule: Schedule) -> ScheduleDocument:
        """Write the whole schedule; raises ``ConcurrencyError`` if it changed meanwhile."""
        document = stored(schedule, ScheduleDocument, f"schedule {schedule.id}")
        with translate_errors(f"saving schedule {schedule.id}"):
            await document.replace()
        return document

    async def live(self) -> list[ScheduleDocument]:
        """Active and paused schedules (deleted ones are kept for history only)."""
        with translate_errors("listing schedules"):
            return await ScheduleDocument.find(_live()).sort("+created_at").to_list()

    async def for_owner(self, owner_id: int) -> list[ScheduleDocument]:
        with translate_errors(f"listing schedules of user {owner_id}"):
            return (
                await ScheduleDocument.find(ScheduleDocument.owner_id == owner_id, _live())
                .sort("+created_at")
                .to_list()
            )

    async def update(
        self, schedule_id: str, change: Callable[[Schedule], bool], *, attempts: int = 5
    ) -> ScheduleDocument | None:
        """Load, ``change`` in place and save, again from a fresh copy when someone else
        saved meanwhile. ``change`` returns False to leave the schedule as it is.
        Returns the schedule as it is now (None if there is none)."""
        for attempt in range(attempts):
            schedule = await self.get(schedule_id)
            if schedule is None or not change(schedule):
                return schedule
            try:
                return await self.save(schedule)
            except ConcurrencyError:
                if attempt == attempts - 1:
                    raise
        return None  # pragma: no cover - the loop returns or raises
