"""Window openings and due dates: weekdays, lead time, time zones and DST changes."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from scenarios.booking.schedules.times import due_dates, local_instant, next_fire_time, window_opens
from scenarios.booking.schedules.trigger import WindowTrigger

UTC = dt.UTC
NY = ZoneInfo("America/New_York")
MSK = ZoneInfo("Europe/Moscow")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_moscow_has_no_dst_a_thursday_opens_14_days_ahead_at_local_midnight() -> None:
    # Thursday 2026-12-10 opens on Thursday 2026-11-26 00:00 MSK = 25.11 21:00 UTC.
    after = utc(2026, 11, 23, 7)
    first = next_fire_time(["thu"], tz=MSK, after=after, lead_days=14, at=dt.time(0))
    assert first == utc(2026, 11, 25, 21)
    assert first.astimezone(MSK).date() + dt.timedelta(days=14) == dt.date(2026, 12, 10)
    # Summer and winter alike: +03:00 all year.
    summer = next_fire_time(["thu"], tz=MSK, after=utc(2026, 7, 1), lead_days=14, at=dt.time(0))
    assert summer is not None and summer.astimezone(MSK).utcoffset() == dt.timedelta(hours=3)
    assert summer.hour == 21


def test_several_weekdays_fire_in_order() -> None:
    after = utc(2026, 11, 23, 7)  # Monday 10:00 MSK
    times = []
    for _ in range(4):
        nxt = next_fire_time(["mon", "wed"], tz=MSK, after=after, lead_days=0, at=dt.time(9))
        assert nxt is not None
        times.append(nxt.astimezone(MSK))
        after = nxt
    assert [t.strftime("%a %d %H:%M") for t in times] == [
        "Wed 25 09:00",
        "Mon 30 09:00",
        "Wed 02 09:00",
        "Mon 07 09:00",
    ]


def test_new_york_spring_forward_keeps_local_midnight() -> None:
    # DST starts Sunday 2026-03-08. Saturday midnight is EST before, EDT after.
    before = next_fire_time(["sat"], tz=NY, after=utc(2026, 3, 1), lead_days=0, at=dt.time(0))
    assert before == utc(2026, 3, 7, 5)  # 00:00 EST
    after = next_fire_time(["sat"], tz=NY, after=before, lead_days=0, at=dt.time(0))
    assert after == utc(2026, 3, 14, 4)  # 00:00 EDT: one hour earlier in UTC
    assert after.astimezone(NY).time() == dt.time(0)


def test_new_york_a_skipped_local_time_fires_just_after_the_change() -> None:
    # 02:30 does not exist on 2026-03-08: it fires at 03:30 EDT (07:30 UTC), once.
    when = next_fire_time(["sun"], tz=NY, after=utc(2026, 3, 7), lead_days=0, at=dt.time(2, 30))
    assert when == utc(2026, 3, 8, 7, 30)
    assert when.astimezone(NY).strftime("%H:%M %Z") == "03:30 EDT"
    following = next_fire_time(["sun"], tz=NY, after=when, lead_days=0, at=dt.time(2, 30))
    assert following == utc(2026, 3, 15, 6, 30)  # 02:30 EDT


def test_new_york_fall_back_a_repeated_local_time_fires_once() -> None:
    # DST ends Sunday 2026-11-01: 01:30 happens twice; the first (EDT) is taken.
    when = next_fire_time(["sun"], tz=NY, after=utc(2026, 10, 31), lead_days=0, at=dt.time(1, 30))
    assert when == utc(2026, 11, 1, 5, 30)
    again = next_fire_time(["sun"], tz=NY, after=when, lead_days=0, at=dt.time(1, 30))
    assert again == utc(2026, 11, 8, 6, 30)  # next Sunday, 01:30 EST


def test_lead_time_across_the_dst_change_counts_local_days() -> None:
    # Thursday 2026-03-19 (EDT) opens 14 days earlier, Thursday 2026-03-05 00:00 EST.
    opens = window_opens(dt.date(2026, 3, 19), lead_days=14, at=dt.time(0), tz=NY)
    assert opens == utc(2026, 3, 5, 5)
    fire = next_fire_time(["thu"], tz=NY, after=utc(2026, 3, 1), lead_days=14, at=dt.time(0))
    assert fire == opens


@pytest.mark.parametrize(
    ("tz", "expected"),
    [("Europe/Moscow", utc(2026, 11, 25, 21)), ("Asia/Tokyo", utc(2026, 11, 25, 15))],
)
def test_the_same_rule_in_other_zones(tz: str, expected: dt.datetime) -> None:
    zone = ZoneInfo(tz)
    got = next_fire_time(["thu"], tz=zone, after=utc(2026, 11, 23), lead_days=14, at=dt.time(0))
    assert got == expected


def test_due_dates_are_the_open_window_not_past_and_not_before_creation() -> None:
    now = utc(2026, 11, 23, 7)  # Monday 10:00 MSK
    due = due_dates(["mon", "thu"], tz=MSK, now=now, lead_days=14, at=dt.time(0))
    assert due == [
        dt.date(2026, 11, 23),
        dt.date(2026, 11, 26),
        dt.date(2026, 11, 30),
        dt.date(2026, 12, 3),
        dt.date(2026, 12, 7),
    ]
    # Today at 09:00 has gone by: not due.
    later = due_dates(["mon"], tz=MSK, now=now, lead_days=14, at=dt.time(0), start=dt.time(9))
    assert later == [dt.date(2026, 11, 30), dt.date(2026, 12, 7)]
    since = due_dates(
        ["mon", "thu"], tz=MSK, now=now, lead_days=14, at=dt.time(0), since=dt.date(2026, 12, 1)
    )
    assert since == [dt.date(2026, 12, 3), dt.date(2026, 12, 7)]
    assert due_dates(["thu"], tz=MSK, now=now, lead_days=2, at=dt.time(0)) == []
    assert due_dates(["thu"], tz=MSK, now=now, lead_days=3, at=dt.time(0)) == [
        dt.date(2026, 11, 26)
    ]


def test_local_instant_is_utc() -> None:
    assert local_instant(dt.date(2026, 7, 1), dt.time(12), NY) == utc(2026, 7, 1, 16)
    assert next_fire_time([], tz=NY, after=utc(2026, 7, 1), lead_days=0, at=dt.time(0)) is None


def test_the_apscheduler_trigger_uses_the_same_times() -> None:
    trigger = WindowTrigger(["sun"], tz=NY, lead_days=0, at=dt.time(2, 30))
    first = trigger.get_next_fire_time(None, utc(2026, 3, 7))
    assert first == utc(2026, 3, 8, 7, 30)
    assert trigger.get_next_fire_time(first, first) == utc(2026, 3, 15, 6, 30)
