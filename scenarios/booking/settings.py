"""The booking job's section of the settings (``SCHEDULER__…`` in the environment): when
recurring bookings fire and how often due reminders are looked for."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

__all__ = ["SchedulerSettings"]


class SchedulerSettings(BaseModel):
    """The recurring-booking scheduler's timing and the reminders' (``SCHEDULER__LEAD_DAYS=14``
    and so on): the booking job's section of the settings."""

    # A date is booked when it enters the booking system's window: ``lead_days`` before
    # it, at ``fire_at`` in the schedule's time zone. None: the catalogue's horizon.
    lead_days: int | None = Field(default=None, ge=0)
    fire_at: dt.time = dt.time(0, 0)
    # A periodic check that books what is due and not yet booked (catch-up after
    # downtime, retries, schedules created by other processes); it also runs at start-up.
    tick_seconds: int = Field(default=300, ge=1)
    # A failed firing (portal down, server error) is tried again on a later tick,
    # at most ``max_attempts`` times per date and not sooner than ``retry_seconds``.
    max_attempts: int = Field(default=3, ge=1)
    retry_seconds: int = Field(default=1800, ge=1)
    # How long one process's claim on a (schedule, date, attempt) lasts in Redis: longer
    # than recording a firing takes. A firing left ``pending`` longer is counted as lost.
    claim_ttl_seconds: int = Field(default=600, ge=1)
    # APScheduler: a job that is late (event loop stalled, machine asleep) still runs
    # when at most this late (None: however late; firing is idempotent); missed runs
    # of one job are coalesced into one.
    misfire_grace_seconds: int | None = 6 * 3600
    coalesce: bool = True
    # How often due reminders of bookings are looked for (they are due an hour before).
    remind_every_seconds: float = Field(default=30.0, gt=0)
    # A new schedule's first firing waits this long, so «создана» is said before it.
    first_fire_delay_seconds: float = Field(default=1.0, ge=0)
