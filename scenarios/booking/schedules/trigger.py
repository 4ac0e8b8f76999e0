"""An APScheduler trigger that fires when a schedule's next date enters the window
(the times come from ``times.next_fire_time``, so tests and the timer agree)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger

from scenarios.booking.schedules.times import next_fire_time

__all__ = ["WindowTrigger"]


class WindowTrigger(BaseTrigger):
    __slots__ = ("at", "lead_days", "tz", "weekdays")

    def __init__(self, weekdays: list[str], *, tz: ZoneInfo, lead_days: int, at: dt.time) -> None:
        self.weekdays = list(weekdays)
        self.tz = tz
        self.lead_days = lead_days
        self.at = at

    def get_next_fire_time(
        self, previous_fire_time: dt.datetime | None, now: dt.datetime
    ) -> dt.datetime | None:
        after = previous_fire_time or now
        return next_fire_time(
            self.weekdays, tz=self.tz, after=after, lead_days=self.lead_days, at=self.at
        )

    def signature(self) -> tuple[object, ...]:
        return (tuple(self.weekdays), self.tz.key, self.lead_days, self.at)

    def __repr__(self) -> str:
        return f"<WindowTrigger {','.join(self.weekdays)} {self.at:%H:%M} {self.tz.key}>"
