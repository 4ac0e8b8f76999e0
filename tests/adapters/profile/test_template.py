"""Profile templates write dates, times and text in every format, and read dates and
times back (no browser here)."""

from __future__ import annotations

from datetime import date, time

import pytest

from adapters.profile.errors import TemplateError
from adapters.profile.loader import parse_site_profile
from adapters.profile.template import (
    DATE_FORMATS,
    FILTERS,
    TIME_FORMATS,
    Template,
    parse_date,
    parse_time,
)
from tests.adapters.profile.profile_text import FILE, edited

DAY = date(2026, 11, 27)
EVENING = time(18, 0)

# Every format of template.FILTERS, with what it writes.
WRITTEN: dict[str, tuple[object, str]] = {
    "iso": (DAY, "2026-11-27"),
    "dmy": (DAY, "27.11.2026"),
    "dmy_slash": (DAY, "27/11/2026"),
    "mdy": (DAY, "11/27/2026"),
    "long": (DAY, "27 November 2026"),
    "hhmm": (EVENING, "18:00"),
    "h12": (EVENING, "06:00 PM"),
    "h12_short": (EVENING, "6:00 PM"),
    "seconds": (EVENING, "64800"),
    "minutes": (EVENING, "1080"),
    # In parts, one query value each: a month and a day with and without a leading zero.
    "year": (date(2026, 3, 5), "2026"),
    "month": (date(2026, 3, 5), "3"),
    "month2": (date(2026, 3, 5), "03"),
    "day": (date(2026, 3, 5), "5"),
    "day2": (date(2026, 3, 5), "05"),
    "hour": (time(9, 5), "9"),
    "hour2": (time(9, 5), "09"),
    "minute": (time(9, 5), "5"),
    "minute2": (time(9, 5), "05"),
    "url": ("Main 1/2 & ы?", "Main%201%2F2%20%26%20%D1%8B%3F"),
    "lower": ("Главный Корпус", "главный корпус"),
}


def test_every_format_is_tested() -> None:
    assert set(WRITTEN) == set(FILTERS)


@pytest.mark.parametrize(
    ("fmt", "written"),
    [pytest.param(fmt, written, id=fmt) for fmt, written in WRITTEN.items()],
)
def test_a_template_writes_each_format(fmt: str, written: tuple[object, str]) -> None:
    value, text = written
    assert Template.parse(f"[{{value|{fmt}}}]").render({"value": value}) == f"[{text}]"


@pytest.mark.parametrize(("fmt", "written"), WRITTEN.items(), ids=list(WRITTEN))
def test_each_format_writes_its_value(fmt: str, written: tuple[object, str]) -> None:
    value, text = written
    assert FILTERS[fmt](value) == text  # type: ignore[operator]


def test_a_profile_may_write_a_time_on_the_12_hour_clock() -> None:
    text = edited('      select: "{start|hhmm}"', '      select: "{start|h12_short}"')
    select = parse_site_profile(text, FILE).profile.book.fields[1].select
    assert select is not None
    assert select.render({"start": time(18, 30)}) == "6:30 PM"


def test_a_profile_may_open_a_form_with_the_day_and_the_time_in_parts() -> None:
    text = edited(
        "&date={date|iso}&start=",
        "&year={date|year}&month={date|month}&day={date|day2}&hour={start|hour}&start=",
    )
    opened = parse_site_profile(text, FILE).profile.book.open
    assert opened is not None and opened.url is not None
    written = opened.url.render(
        {"date": date(2026, 3, 5), "start": time(9, 0), "end": time(10, 0), "room_id": "1"}
    )
    assert "&year=2026&month=3&day=05&hour=9&" in written


def test_a_slot_without_format_writes_iso_dates_24_hour_times_and_text() -> None:
    template = Template.parse("{date} {start} {room} {attendees} {purpose}")
    assert template.names == {"date", "start", "room", "attendees", "purpose"}
    written = template.render({"date": DAY, "start": time(9, 5), "room": "101", "attendees": 12})
    assert written == "2026-11-27 09:05 101 12 "  # a value not given writes nothing


@pytest.mark.parametrize(
    ("source", "written"),
    [
        ("{{", "{"),
        ("}}", "}"),
        ("{{number}}", "{number}"),
        ("{{{number}}}", "{7}"),
        ("a{{b}}c {number}", "a{b}c 7"),
        ('{{"n": {number}}}', '{"n": 7}'),
    ],
)
def test_doubled_braces_are_literal(source: str, written: str) -> None:
    assert Template.parse(source).render({"number": 7}) == written
    assert str(Template.parse(source)) == source


@pytest.mark.parametrize(
    "source",
    [
        "{date.year}",  # attribute access
        "{date[0]}",  # indexing
        "{date()}",  # a call
        "{ date }",  # not a slot
        "{Date}",  # names are lower case
        "{date|iso|lower}",  # one format per slot
        "{date|}",
        "{}",
        "{0}",
        "{date!r}",
        "{date:%Y}",
    ],
)
def test_a_template_is_slots_not_expressions(source: str) -> None:
    with pytest.raises(TemplateError):
        Template.parse(source)


DATES = [date(2026, 1, 1), date(2026, 11, 27), date(2028, 2, 29), date(2026, 12, 31)]
TIMES = [
    time(0, 0),
    time(0, 30),
    time(9, 5),
    time(11, 59),
    time(12, 0),
    time(12, 30),
    time(13, 0),
    time(18, 0),
    time(23, 30),
]


@pytest.mark.parametrize("fmt", DATE_FORMATS)
@pytest.mark.parametrize("day", DATES, ids=str)
def test_a_date_reads_back_in_its_format(fmt: str, day: date) -> None:
    written = DATE_FORMATS[fmt](day)
    assert parse_date(written, fmt) == day
    assert parse_date(f"Дата: {written} (пт)", fmt) == day  # the first date in a text


@pytest.mark.parametrize("fmt", TIME_FORMATS)
@pytest.mark.parametrize("moment", TIMES, ids=str)
def test_a_time_reads_back_in_its_format(fmt: str, moment: time) -> None:
    assert parse_time(TIME_FORMATS[fmt](moment), fmt) == moment


@pytest.mark.parametrize(
    ("fmt", "moment", "written"),
    [
        ("h12", time(0, 0), "12:00 AM"),
        ("h12", time(0, 30), "12:30 AM"),
        ("h12", time(12, 0), "12:00 PM"),
        ("h12", time(12, 30), "12:30 PM"),
        ("h12", time(23, 30), "11:30 PM"),
        ("h12_short", time(0, 0), "12:00 AM"),
        ("h12_short", time(9, 5), "9:05 AM"),
        ("h12_short", time(12, 30), "12:30 PM"),
        ("h12_short", time(23, 30), "11:30 PM"),
        ("hhmm", time(0, 0), "00:00"),
        ("hhmm", time(23, 30), "23:30"),
        ("seconds", time(0, 0), "0"),
        ("seconds", time(23, 30), "84600"),
        ("minutes", time(12, 30), "750"),
    ],
)
def test_the_edges_of_the_clock_are_written_right(fmt: str, moment: time, written: str) -> None:
    assert TIME_FORMATS[fmt](moment) == written


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("12:00 AM", time(0, 0)),
        ("12:30 am", time(0, 30)),
        ("12:00 PM", time(12, 0)),
        ("12:30 p.m.", time(12, 30)),
        ("6:00PM", time(18, 0)),
        ("11:30 PM", time(23, 30)),
        ("18.00", time(18, 0)),
        ("18:00:00", time(18, 0)),
        ("с 23:30", time(23, 30)),
    ],
)
def test_a_clock_is_read_in_12_and_24_hour_forms(text: str, moment: time) -> None:
    assert parse_time(text, "h12") == moment
    assert parse_time(text, "hhmm") == moment


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("24:00", "hhmm"),
        ("18:60", "hhmm"),
        ("вечером", "hhmm"),
        ("86400", "seconds"),
        ("1440", "minutes"),
        ("18:00", "seconds"),
        ("-60", "minutes"),
    ],
)
def test_a_time_that_is_not_one_reads_as_none(text: str, fmt: str) -> None:
    assert parse_time(text, fmt) is None


@pytest.mark.parametrize(
    ("text", "fmt"),
    [("2026-02-30", "iso"), ("31.04.2026", "dmy"), ("13/27/2026", "mdy"), ("завтра", "iso")],
)
def test_a_date_that_is_not_one_reads_as_none(text: str, fmt: str) -> None:
    assert parse_date(text, fmt) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Friday, 27 November 2026", date(2026, 11, 27)),
        ("27 Nov 2026", date(2026, 11, 27)),
        ("пятница, 27 ноября 2026", date(2026, 11, 27)),
        ("1 мая 2026 г.", date(2026, 5, 1)),
        ("3 Sept. 2026", date(2026, 9, 3)),
    ],
)
def test_a_date_with_the_months_name_is_read_in_english_and_russian(text: str, day: date) -> None:
    assert parse_date(text, "long") == day


def test_a_month_name_that_is_not_one_reads_as_none() -> None:
    assert parse_date("27 Brumaire 2026", "long") is None


def test_day_and_month_orders_are_told_apart() -> None:
    assert parse_date("03/04/2026", "dmy_slash") == date(2026, 4, 3)
    assert parse_date("03/04/2026", "mdy") == date(2026, 3, 4)
