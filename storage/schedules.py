"""Recurring booking schedules: the source of truth the timer is rebuilt from."""

from __future__ import annotations

from collections.abc import Callable

from beanie import PydanticObjectId

from core.errors import ConcurrencyError
from storage.documents import Schedule, ScheduleStatus
from storage.errors import translate_errors

__all__ = ["ScheduleRepository"]


class ScheduleRepository:
    async def create(self, schedule: Schedule) -> Schedule:
        with translate_errors("creating a schedule"):
            await schedule.insert()
        return schedule

    async def get(self, schedule_id: str) -> Schedule | None:
        if not PydanticObjectId.is_valid(schedule_id):
            return None
        with translate_errors(f"loading schedule {schedule_id}"):
            return await Schedule.get(PydanticObjectId(schedule_id))

    async def save(self, schedule: Schedule) -> Schedule:
        """Write the whole schedule; raises ``ConcurrencyError`` if it changed meanwhile."""
        with translate_errors(f"saving schedule {schedule.id}"):
            await schedule.replace()
        return schedule

    async def live(self) -> list[Schedule]:
        """Active and paused schedules (deleted ones are kept for history only)."""
        with translate_errors("listing schedules"):
            return (
                await Schedule.find(
                    {"status": {"$in": [ScheduleStatus.ACTIVE.value, ScheduleStatus.PAUSED.value]}}
                )
                .sort("+created_at")
                .to_list()
            )

    async def for_owner(self, owner_id: int) -> list[Schedule]:
        with translate_errors(f"listing schedules of user {owner_id}"):
            return (
                await Schedule.find(
                    Schedule.owner_id == owner_id,
                    {"status": {"$in": [ScheduleStatus.ACTIVE.value, ScheduleStatus.PAUSED.value]}},
                )
                .sort("+created_at")
                .to_list()
            )

    async def update(
        self, schedule_id: str, change: Callable[[Schedule], bool], *, attempts: int = 5
    ) -> Schedule | None:
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
