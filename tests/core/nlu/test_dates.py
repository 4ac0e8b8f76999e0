"""Date forms (today is Monday 2026-11-23)."""

from __future__ import annotations

from datetime import date

import pytest

from core.nlu.dates import upcoming, weekday_date
from tests.support.reading import PLACES, decide

DATES: list[tuple[str, str]] = [
    # relative days
    ("забронируй аудиторию сегодня с 18 до 20", "2026-11-23"),
    ("забронируй аудиторию завтра с 18 до 20", "2026-11-24"),
    ("забронируй аудиторию послезавтра с 18 до 20", "2026-11-25"),
    ("book a room today 18-20", "2026-11-23"),
    ("book a room tomorrow 18-20", "2026-11-24"),
    ("book a room the day after tomorrow 18-20", "2026-11-25"),
    ("book a room day after tomorrow 18-20", "2026-11-25"),
    ("забронируй через 2 дня с 10 до 12", "2026-11-25"),
    ("забронируй через неделю с 10 до 12", "2026-11-30"),
    ("book in 3 days 10-12", "2026-11-26"),
    ("book a room in a week 10-12", "2026-11-30"),
    # bare weekday: nearest from today on, today included
    ("забронируй в понедельник с 18 до 20", "2026-11-23"),
    ("забронируй во вторник с 18 до 20", "2026-11-24"),
    ("забронируй в среду с 18 до 20", "2026-11-25"),
    ("забронируй в четверг с 18 до 20", "2026-11-26"),
    ("забронируй в пятницу с 18 до 20", "2026-11-27"),
    ("забронируй в субботу с 18 до 20", "2026-11-28"),
    ("забронируй в воскресенье с 18 до 20", "2026-11-29"),
    ("book a room on Monday 10-12", "2026-11-23"),
    ("book a room on Sunday 10-12", "2026-11-29"),
    ("book a room on wed 10-12", "2026-11-25"),
    # this / этот = bare
    ("забронируй в этот четверг с 18 до 20", "2026-11-26"),
    ("забронируй в эту пятницу с 18 до 20", "2026-11-27"),
    ("забронируй на эту среду с 18 до 20", "2026-11-25"),
    ("book a room this Thursday 10-12", "2026-11-26"),
    ("book a room this Monday 10-12", "2026-11-23"),
    # next / следующий = that day of the next calendar week
    ("забронируй в следующий четверг с 18 до 20", "2026-12-03"),
    ("забронируй в следующую среду с 18 до 20", "2026-12-02"),
    ("забронируй в следующий понедельник с 18 до 20", "2026-11-30"),
    ("book a room next Friday 10-12", "2026-12-04"),
    ("book a room next Monday 10-12", "2026-11-30"),
    ("book a room next Sunday 10-12", "2026-12-06"),
    # explicit dates
    ("забронируй 27 ноября с 18 до 20", "2026-11-27"),
    ("забронируй 27-го ноября с 18 до 20", "2026-11-27"),
    ("забронируй 2 декабря с 18 до 20", "2026-12-02"),
    ("забронируй на 27.11 с 18 до 20", "2026-11-27"),
    ("забронируй на 1.12 с 18 до 20", "2026-12-01"),
    ("забронируй на 27.11.2026 с 18 до 20", "2026-11-27"),
    ("забронируй на 05.01.27 с 18 до 20", "2027-01-05"),
    ("забронируй на 27/11 с 18 до 20", "2026-11-27"),
    ("book a room on Nov 27 10-12", "2026-11-27"),
    ("book a room on November 27th 10-12", "2026-11-27"),
    ("book a room December 2 10-12", "2026-12-02"),
    ("book a room on 2 December 10-12", "2026-12-02"),
    ("book a room on the 27th of November 10-12", "2026-11-27"),
    ("book a room on 11/27 10-12", "2026-11-27"),
    ("book a room on 27/11 10-12", "2026-11-27"),
    ("book a room on 2026-12-24 10-12", "2026-12-24"),
    ("book a room on December 2, 2027 10-12", "2027-12-02"),
    ("забронируй 2 декабря 2027 года с 10 до 12", "2027-12-02"),
    # a date already past this year means next year
    ("забронируй 20 ноября с 10 до 12", "2027-11-20"),
    ("забронируй 1 января с 10 до 12", "2027-01-01"),
    ("book a room on Jan 5 10-12", "2027-01-05"),
    ("забронируй на 22.11 с 10 до 12", "2027-11-22"),
    ("забронируй 23 ноября с 10 до 12", "2026-11-23"),
]


@pytest.mark.parametrize(("text", "expected"), DATES)
def test_date_forms(text: str, expected: str) -> None:
    assert decide(text).to_json()["slots"]["date"] == expected  # type: ignore[index]


@pytest.mark.parametrize(
    "text",
    [
        "забронируй 31 ноября с 10 до 12",
        "забронируй на 30.02 с 10 до 12",
        "book a room on 13/13 10-12",
    ],
)
def test_impossible_dates_are_missing(text: str) -> None:
    decision = decide(text)
    assert decision.slots.date is None
    assert decision.missing == ["date"]


def test_times_with_dots_are_not_dates() -> None:
    decision = decide("забронируй завтра с 18.30 до 20.00")
    assert decision.slots.date == date(2026, 11, 24)
    assert decision.to_json()["slots"] == {
        "date": "2026-11-24",
        "start": "18:30",
        "end": "20:00",
        "rooms": 1,
    }


def test_today_follows_the_users_time_zone() -> None:
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from scenarios.booking.vocabulary import parse

    late_utc = datetime(2026, 11, 23, 22, 30, tzinfo=UTC)  # already Tuesday in Moscow
    moscow = ZoneInfo("Europe/Moscow")
    decision = parse("book a room today 10-12", now=late_utc, tz=moscow, places=PLACES)
    assert decision.slots.date == date(2026, 11, 24)


@pytest.mark.parametrize(
    ("weekday", "mode", "expected"),
    [
        (0, "this", date(2026, 11, 23)),
        (6, "this", date(2026, 11, 29)),
        (0, "next", date(2026, 11, 30)),
        (3, "next", date(2026, 12, 3)),
        (4, "last", date(2026, 11, 20)),
        (0, "last", date(2026, 11, 16)),
    ],
)
def test_weekday_rule(weekday: int, mode: str, expected: date) -> None:
    assert weekday_date(date(2026, 11, 23), weekday, mode) == expected


def test_upcoming_rolls_to_next_year_and_rejects_impossible() -> None:
    today = date(2026, 11, 23)
    assert upcoming(today, 22, 11, None) == date(2027, 11, 22)
    assert upcoming(today, 29, 2, None) is None  # 2027 is not a leap year
    assert upcoming(today, 29, 2, 2028) == date(2028, 2, 29)
