"""Date forms (today is Monday 2026-11-23)."""

from __future__ import annotations

from datetime import date

import pytest

from core.nlu.dates import upcoming, weekday_date
from tests.support.reading import NOW, PLACES, TZ, decide

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


# A weekday said with its date (issue 65, item 7). Monday 2026-11-23: 1 Dec is a Tuesday,
# 30 Nov a Monday. Agreeing, the date wins; disagreeing, there is no date but both offered.
WEEKDAY_WITH_DATE: list[tuple[str, str]] = [
    ("забронируй аудиторию во вторник 1 декабря с 10 до 12", "2026-12-01"),
    ("забронируй аудиторию в понедельник 30 ноября с 10 до 12", "2026-11-30"),
    ("забронируй аудиторию 1 декабря, во вторник, с 10 до 12", "2026-12-01"),
    ("забронируй аудиторию пн 30.11 с 10 до 12", "2026-11-30"),
    ("забронируй аудиторию на 30.11 (пн) с 10 до 12", "2026-11-30"),
    ("book a room on Monday, November 30 10-12", "2026-11-30"),
    ("book a room Tuesday the 1st of December 10-12", "2026-12-01"),
    ("book a room on November 30, Monday, 10-12", "2026-11-30"),
    ("book a room next Monday, Nov 30 10-12", "2026-11-30"),
    ("бронируй каждую неделю во вторник 1 декабря с 10 до 12", "2026-12-01"),  # a first day
]


@pytest.mark.parametrize(("text", "expected"), WEEKDAY_WITH_DATE)
def test_a_date_wins_over_a_weekday_that_agrees(text: str, expected: str) -> None:
    decision = decide(text)
    assert decision.to_json()["slots"]["date"] == expected  # type: ignore[index]
    assert decision.slots.date_options is None
    assert decision.next_action == "execute"


WEEKDAY_AGAINST_DATE: list[tuple[str, list[date]]] = [
    ("забронируй аудиторию в среду 1 декабря с 10 до 12", [date(2026, 12, 1), date(2026, 12, 2)]),
    ("забронируй аудиторию 1 декабря, в среду, с 10 до 12", [date(2026, 12, 1), date(2026, 12, 2)]),
    ("забронируй аудиторию вт 30.11 с 10 до 12", [date(2026, 11, 30), date(2026, 12, 1)]),
    ("book a room on Tuesday, November 30 10-12", [date(2026, 11, 30), date(2026, 12, 1)]),
    ("book a room on Sunday, December 1 10-12", [date(2026, 11, 29), date(2026, 12, 1)]),
    # a schedule's first day, its weekday taken by the recurrence
    ("бронируй каждую неделю в среду 1 декабря с 10 до 12", [date(2026, 12, 1), date(2026, 12, 2)]),
    # the weekday nearest the date is offered, never one already past
    ("забронируй в воскресенье 24 ноября с 10 до 12", [date(2026, 11, 24), date(2026, 11, 29)]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "offered"), WEEKDAY_AGAINST_DATE)
def test_a_weekday_against_its_date_is_asked_with_both(text: str, offered: list[date]) -> None:
    decision = decide(text)
    assert decision.slots.date is None
    assert decision.slots.date_options == offered
    assert decision.missing[0] == "date" and decision.next_action == "clarify"
    question = decision.clarification_question or ""
    labels = ("вт 01.12", "ср 02.12") if offered[0] == date(2026, 12, 1) else None
    if labels is not None:
        assert all(label in question for label in labels), question


def test_the_question_names_both_dates_in_english() -> None:
    decision = decide("book a room on Tuesday, November 30 10-12")
    assert decision.clarification_question == (
        "The weekday and the date do not match: Mon 30 Nov or Tue 01 Dec?"
    )


@pytest.mark.parametrize(
    "text",
    [
        "забронируй в пятницу с 10.00 до 12.00",  # a time with dots after a weekday
        "забронируй в пятницу 18.30-20.00",
        "забронируй каждую среду с 10 до 12",
        "забронируй в среду и 1 декабря с 10 до 12",  # two days, not one said twice
    ],
)
def test_a_weekday_without_its_date_is_read_as_before(text: str) -> None:
    assert decide(text).slots.date_options is None


def test_an_answer_that_says_a_date_two_ways_is_asked_again() -> None:
    from core.nlu import SlotParseError, parse_slot

    assert parse_slot(
        "date", "во вторник 1 декабря", now=NOW, tz=TZ, lang="ru", places=PLACES
    ) == date(2026, 12, 1)
    with pytest.raises(SlotParseError, match="вт 01.12 или ср 02.12"):
        parse_slot("date", "в среду 1 декабря", now=NOW, tz=TZ, lang="ru", places=PLACES)


def test_a_weekday_answering_the_which_date_question_means_the_day_offered() -> None:
    from core.nlu import parse_slot

    offered = [date(2026, 12, 1), date(2026, 12, 2)]

    def answer(text: str) -> object:
        return parse_slot("date", text, now=NOW, tz=TZ, lang="ru", places=PLACES, offered=offered)

    assert answer("в среду") == date(2026, 12, 2)  # not the nearest Wednesday, 25 Nov
    assert answer("вторник") == date(2026, 12, 1)
    assert answer("в четверг") == date(2026, 11, 26)  # neither: read as ever
    assert answer("9 декабря") == date(2026, 12, 9)
