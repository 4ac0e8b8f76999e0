"""What the schedule scenarios are given: the store of schedules (over the repository,
as plain ``ScheduleEntry`` data) and a timer handle that reaches the running scheduler."""

from __future__ import annotations

from typing import Any, Protocol

from core.clock import Clock, SystemClock
from core.scheduler.entry import ScheduleEntry, ScheduleState
from core.store import Schedule, ScheduleStatus, Store

__all__ = ["LateTimer", "ScheduleBook", "TimerLike", "entry_of"]


def entry_of(schedule: Schedule) -> ScheduleEntry:
    return ScheduleEntry(
        id=str(schedule.id),
        owner_id=schedule.owner_id,
        chat_id=schedule.chat_id,
        weekdays=list(schedule.weekdays),
        slots=dict(schedule.slots),
        timezone=schedule.timezone,
        status=schedule.status.value,
    )


class ScheduleBook:
    """``scenarios.schedules.ScheduleStore`` on the schedule repository."""

    def __init__(self, storage: Store, *, clock: Clock | None = None) -> None:
        self._storage = storage
        self._clock = clock or SystemClock()

    async def create(
        self,
        *,
        owner_id: int,
        chat_id: int,
        weekdays: list[str],
        slots: dict[str, Any],
        timezone: str,
    ) -> ScheduleEntry:
        schedule = Schedule(
            owner_id=owner_id,
            chat_id=chat_id,
            weekdays=weekdays,
            slots=slots,
            timezone=timezone,
            created_at=self._clock.now(),  # dates from its creation on are booked
        )
        return entry_of(await self._storage.schedules.create(schedule))

    async def of_owner(self, owner_id: int) -> list[ScheduleEntry]:
        return [entry_of(s) for s in await self._storage.schedules.for_owner(owner_id)]

    async def set_status(self, schedule_id: str, status: ScheduleState) -> ScheduleEntry | None:
        wanted = ScheduleStatus(status)

        def change(schedule: Schedule) -> bool:
            if schedule.status in (wanted, ScheduleStatus.DELETED):
                return False  # nothing to do; a deleted schedule stays deleted
            schedule.status = wanted
            return True

        updated = await self._storage.schedules.update(schedule_id, change)
        return entry_of(updated) if updated is not None else None

    async def set_weekdays(self, schedule_id: str, weekdays: list[str]) -> ScheduleEntry | None:
        def change(schedule: Schedule) -> bool:
            if schedule.weekdays == weekdays:
                return False
            schedule.weekdays = list(weekdays)
            return True

        updated = await self._storage.schedules.update(schedule_id, change)
        return entry_of(updated) if updated is not None else None


class TimerLike(Protocol):
    """What ``LateTimer`` forwards to (``BookingScheduler`` fits)."""

    async def add(self, schedule: str) -> None: ...
    async def remove(self, schedule_id: str) -> None: ...


class LateTimer:
    """``scenarios.schedules.ScheduleTimer`` for scenarios built before the scheduler
    (the scheduler needs the manager, which needs the scenarios): forwards once attached.
    Unattached, it does nothing: the scheduler's start-up rebuild and ticks read the
    documents anyway."""

    def __init__(self) -> None:
        self._target: TimerLike | None = None

    def attach(self, scheduler: TimerLike) -> None:
        self._target = scheduler

    def detach(self) -> None:
        self._target = None

    async def add(self, schedule: str) -> None:
        if self._target is not None:
            await self._target.add(schedule)

    async def remove(self, schedule_id: str) -> None:
        if self._target is not None:
            await self._target.remove(schedule_id)
