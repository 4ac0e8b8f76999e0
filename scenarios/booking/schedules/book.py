"""What the schedule scenarios are given: the store of schedules (over the repository,
as plain ``ScheduleEntry`` data). Every change is published as ``ScheduleChanged``; the
running scheduler listens for it, so the scenarios need no handle on the scheduler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.clock import Clock, SystemClock
from core.events import BaseEvent, EventBus
from scenarios.booking.records import BookingStore, Schedule, ScheduleStatus
from scenarios.booking.schedules.entry import ScheduleEntry, ScheduleState

__all__ = ["ScheduleBook", "ScheduleChanged", "entry_of"]


class ScheduleChanged(BaseEvent):
    """A schedule was created, paused, resumed, deleted or given other weekdays."""

    kind = "schedule.changed"
    schedule_id: str
    status: str


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
    """``scenarios.booking.schedules.scenarios.ScheduleStore`` on the schedule repository."""

    def __init__(self, storage: BookingStore, *, bus: EventBus, clock: Clock | None = None) -> None:
        self._storage = storage
        self._bus = bus
        self._clock = clock or SystemClock()

    async def _changed(self, schedule: Schedule | None) -> ScheduleEntry | None:
        if schedule is None:
            return None
        entry = entry_of(schedule)
        await self._bus.publish(
            ScheduleChanged(chat_id=entry.chat_id, schedule_id=entry.id, status=entry.status)
        )
        return entry

    async def _update(
        self, schedule_id: str, change: Callable[[Schedule], bool]
    ) -> ScheduleEntry | None:
        """The schedule after ``change`` (False: it leaves it as it is), published only when
        it changed something."""
        changed = False

        def tracked(schedule: Schedule) -> bool:
            nonlocal changed
            if not change(schedule):
                return False
            changed = True
            return True

        updated = await self._storage.schedules.update(schedule_id, tracked)
        if not changed:
            return entry_of(updated) if updated is not None else None
        return await self._changed(updated)

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
        created = await self._changed(await self._storage.schedules.create(schedule))
        assert created is not None
        return created

    async def of_owner(self, owner_id: int) -> list[ScheduleEntry]:
        return [entry_of(s) for s in await self._storage.schedules.for_owner(owner_id)]

    async def set_status(self, schedule_id: str, status: ScheduleState) -> ScheduleEntry | None:
        wanted = ScheduleStatus(status)

        def change(schedule: Schedule) -> bool:
            if schedule.status in (wanted, ScheduleStatus.DELETED):
                return False  # nothing to do; a deleted schedule stays deleted
            schedule.status = wanted
            return True

        return await self._update(schedule_id, change)

    async def set_weekdays(self, schedule_id: str, weekdays: list[str]) -> ScheduleEntry | None:
        def change(schedule: Schedule) -> bool:
            if schedule.weekdays == weekdays:
                return False
            schedule.weekdays = list(weekdays)
            return True

        return await self._update(schedule_id, change)
