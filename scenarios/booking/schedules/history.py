"""A schedule's history of firings decides what may fire: never twice for a date.

A date with a firing that is pending, running or done is not fired again; nor one the
user cancelled or let expire (they decided). A failed or lost firing is tried again,
``retry`` after the last attempt, at most ``max_attempts`` times in all.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from core.store import RunStatus
from scenarios.booking.records import Schedule, ScheduleFiring

__all__ = ["FiringStatus", "firing_status", "firings_for", "may_fire"]


class FiringStatus(StrEnum):
    PENDING = "pending"  # claimed and recorded; the run is being started
    RUNNING = "running"  # the run is collecting, waiting for an answer or running
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    LOST = "lost"  # recorded as pending, but its process died before starting the run

    @property
    def retryable(self) -> bool:
        return self in (FiringStatus.FAILED, FiringStatus.LOST)

    @property
    def finished(self) -> bool:
        return self not in (FiringStatus.PENDING, FiringStatus.RUNNING)


def firing_status(run: RunStatus) -> FiringStatus:
    """What a firing is, given its run's status."""
    if run.active:
        return FiringStatus.RUNNING
    return FiringStatus(run.value)


def firings_for(schedule: Schedule, target: dt.date) -> list[ScheduleFiring]:
    return [f for f in schedule.history if f.target_date == target]


def may_fire(
    schedule: Schedule,
    target: dt.date,
    *,
    now: dt.datetime,
    max_attempts: int,
    retry: dt.timedelta,
) -> bool:
    earlier = firings_for(schedule, target)
    if not earlier:
        return True
    if not all(FiringStatus(f.status).retryable for f in earlier):
        return False
    return len(earlier) < max_attempts and now - earlier[-1].at >= retry
