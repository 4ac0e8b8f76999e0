"""When a weekly schedule fires and for which dates: pure functions, DST-correct.

A schedule books dates whose weekday is in its list. A date ``D`` can be booked once it
enters the portal's window, ``lead_days`` before it: the *window opens* at ``fire_at``
local time on ``D - lead_days``. Local times are turned into instants with ``zoneinfo``:
a time skipped by a spring-forward change fires at the same wall-clock distance after
the change (02:30 on a 02:00→03:00 night is 03:30), and a time repeated in autumn
fires once, at its first occurrence.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from zoneinfo import ZoneInfo

__all__ = [
    "WEEKDAY_CODES",
    "due_dates",
    "local_instant",
    "next_fire_time",
    "weekday_numbers",
    "window_opens",
]

WEEKDAY_CODES: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def weekday_numbers(weekdays: Iterable[str]) -> frozenset[int]:
    """``["mon", "thu"]`` → ``{0, 3}``; ``ValueError`` for an unknown code."""
    return frozenset(WEEKDAY_CODES.index(day) for day in weekdays)


def local_instant(day: dt.date, at: dt.time, tz: ZoneInfo) -> dt.datetime:
    """The UTC instant of wall-clock ``day at`` in ``tz`` (first one if repeated)."""
    return dt.datetime.combine(day, at, tzinfo=tz).astimezone(dt.UTC)


def window_opens(target: dt.date, *, lead_days: int, at: dt.time, tz: ZoneInfo) -> dt.datetime:
    """When ``target`` becomes bookable: ``at`` on ``target - lead_days``, as UTC."""
    return local_instant(target - dt.timedelta(days=lead_days), at, tz)


def next_fire_time(
    weekdays: Sequence[str],
    *,
    tz: ZoneInfo,
    after: dt.datetime,
    lead_days: int,
    at: dt.time,
) -> dt.datetime | None:
    """The first window opening strictly after ``after`` (UTC), or None with no weekdays."""
    wanted = weekday_numbers(weekdays)
    if not wanted:
        return None
    start = after.astimezone(tz).date() - dt.timedelta(days=1)
    for offset in range(9):
        opens_on = start + dt.timedelta(days=offset)
        target = opens_on + dt.timedelta(days=lead_days)
        if target.weekday() not in wanted:
            continue
        moment = local_instant(opens_on, at, tz)
        if moment > after:
            return moment
    raise AssertionError("a weekly rule fires within 8 days")  # pragma: no cover


def due_dates(
    weekdays: Sequence[str],
    *,
    tz: ZoneInfo,
    now: dt.datetime,
    lead_days: int,
    at: dt.time,
    start: dt.time | None = None,
    since: dt.date | None = None,
) -> list[dt.date]:
    """Dates to have booked by ``now``: their window has opened, they are not past
    (nor today with ``start`` gone by), and not before ``since`` (the schedule's creation)."""
    wanted = weekday_numbers(weekdays)
    local_now = now.astimezone(tz)
    today = local_now.date()
    first = max(today, since) if since is not None else today
    found: list[dt.date] = []
    for offset in range(lead_days + 2):
        day = today + dt.timedelta(days=offset)
        if day < first or day.weekday() not in wanted:
            continue
        if window_opens(day, lead_days=lead_days, at=at, tz=tz) > now:
            continue
        if day == today and start is not None and local_instant(day, start, tz) <= now:
            continue
        found.append(day)
    return found
