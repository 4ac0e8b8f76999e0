"""What the booking job keeps in storage, as plain pydantic records, and the stores that
keep them: its recurring bookings (schedules, with each firing's history) and its
reminders. ``storage`` implements the stores (its documents are subclasses of these
records, as of the core's: ``core.store.records``); the engine names none of them.

Reminders: one record per request (the booking run), kept until sent. A record is
written when the run that booked the rooms finishes, in the run's own finishing step, so
a crash cannot lose it (the resumed run writes it again, once: the run id is unique).
Cancelling rooms takes them out of it; a record left with no rooms is ``CANCELLED``.
Sending moves it ``PENDING → ATTEMPTED`` in one conditional write right before the
message leaves (of two senders only one sends), then ``→ SENT``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, Field

from core.store import Store
from core.store.records import utcnow

__all__ = [
    "BookingStore",
    "ReminderRecord",
    "ReminderRoom",
    "ReminderState",
    "ReminderStore",
    "Schedule",
    "ScheduleFiring",
    "ScheduleRecords",
    "ScheduleStatus",
]


# --- schedules ----------------------------------------------------------------------


class ScheduleStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    DELETED = "deleted"


class ScheduleFiring(BaseModel):
    target_date: date
    run_id: str | None = None
    status: str
    at: datetime = Field(default_factory=utcnow)


class Schedule(BaseModel):
    # Given by the store on ``create`` and opaque to the core: ``str(schedule.id)`` is
    # the schedule's id for ``ScheduleStore.get`` (None until stored).
    id: object = None
    owner_id: int
    chat_id: int
    slots: dict[str, Any] = Field(default_factory=dict)
    weekdays: list[str]
    timezone: str
    status: ScheduleStatus = ScheduleStatus.ACTIVE
    history: list[ScheduleFiring] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)


class ScheduleRecords(Protocol):
    """Where the recurring bookings are kept (``storage`` implements it)."""

    async def create(self, schedule: Schedule) -> Schedule:
        """Store a new schedule; returns the stored one (its ``id`` set)."""

    async def get(self, schedule_id: str) -> Schedule | None: ...

    async def save(self, schedule: Schedule) -> Schedule:
        """Write the whole schedule; ``ConcurrencyError`` if it changed meanwhile."""

    async def live(self) -> Sequence[Schedule]:
        """Active and paused schedules (deleted ones are kept for history only)."""

    async def for_owner(self, owner_id: int) -> Sequence[Schedule]: ...

    async def update(
        self, schedule_id: str, change: Callable[[Schedule], bool], *, attempts: int = 5
    ) -> Schedule | None:
        """Load, ``change`` in place (False: leave it) and save, retried on conflicts;
        the schedule as it is now (None if there is none)."""


# --- reminders ----------------------------------------------------------------------


class ReminderState(StrEnum):
    PENDING = "pending"
    ATTEMPTED = "attempted"  # handed to the messenger; never sent again
    SENT = "sent"
    CANCELLED = "cancelled"  # every room of it was cancelled
    SKIPPED = "skipped"  # due while the user had reminders off, or due too late


class ReminderRoom(BaseModel):
    number: str  # the booking's number on its site
    room: str  # as the user reads it: «101»


class ReminderRecord(BaseModel):
    run_id: str  # the booking run: one reminder per request
    chat_id: int
    user_id: int
    lang: str
    timezone: str  # the request's zone: the reminder tells the times in it
    place: str  # the building as the request's answer named it
    rooms: list[ReminderRoom]
    starts_at: datetime  # UTC
    ends_at: datetime  # UTC
    due_at: datetime  # UTC: when it is sent
    state: ReminderState = ReminderState.PENDING
    message_id: int | None = None
    created_at: datetime = Field(default_factory=utcnow)


class ReminderStore(Protocol):
    async def plan(self, record: ReminderRecord) -> bool:
        """Store the run's reminder unless it has one already; False if it had."""

    async def get(self, run_id: str) -> ReminderRecord | None: ...

    async def pending(self) -> Sequence[ReminderRecord]:
        """Every reminder not yet sent, cancelled or skipped (few: upcoming bookings)."""

    async def due(self, now: datetime) -> Sequence[ReminderRecord]:
        """Pending reminders whose time has come."""

    async def mark(
        self,
        run_id: str,
        *,
        was: ReminderState,
        now: ReminderState,
        message_id: int | None = None,
    ) -> bool:
        """Move the reminder from ``was`` to ``now`` in one atomic write; False if it is
        not in state ``was`` (another sender took it, or it was cancelled)."""

    async def keep_rooms(
        self, run_id: str, *, was: Sequence[ReminderRoom], rooms: Sequence[ReminderRoom]
    ) -> bool:
        """Leave a pending reminder that has the rooms ``was`` only ``rooms`` (none: it
        is ``CANCELLED``), in one atomic write; False if it is no longer pending or its
        rooms changed meanwhile."""


class BookingStore(Store, Protocol):
    """The core's stores and the booking job's (``storage.Storage`` has them all)."""

    @property
    def schedules(self) -> ScheduleRecords: ...

    @property
    def reminders(self) -> ReminderStore: ...
