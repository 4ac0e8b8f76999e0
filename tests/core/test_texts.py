"""The catalogues (the engine's and each job's): every text has both languages with the
same placeholders, and ``tr`` renders them (dates as people read them, plural forms)."""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Iterator
from types import ModuleType

import pytest

import core.texts
import scenarios.booking.schedules.texts
import scenarios.booking.texts
import scenarios.events.texts
from core.texts import Text, day_label, tr
from scenarios.booking.texts import Book, Limits, duration

CATALOGUES: tuple[ModuleType, ...] = (
    core.texts,
    scenarios.booking.texts,
    scenarios.booking.schedules.texts,
    scenarios.events.texts,
)


def _texts() -> Iterator[tuple[str, Text]]:
    """Every ``Text`` the catalogues export, by its dotted name."""
    for catalogue in CATALOGUES:
        for name, text in _exported(catalogue):
            yield f"{catalogue.__name__}.{name}", text


def _exported(catalogue: ModuleType) -> Iterator[tuple[str, Text]]:
    for name in catalogue.__all__:
        value = getattr(catalogue, name)
        if isinstance(value, Text):
            yield name, value
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                found = item[1] if isinstance(item, tuple) else item
                if isinstance(found, Text):
                    yield f"{name}[{index}]", found
        elif isinstance(value, type) and value is not Text:  # a namespace of texts
            for attr, item in vars(value).items():
                if isinstance(item, Text):
                    yield f"{name}.{attr}", item
                elif isinstance(item, tuple):
                    for index, each in enumerate(item):
                        assert isinstance(each, Text)
                        yield f"{name}.{attr}[{index}]", each


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


TEXTS = list(_texts())


def test_every_catalogue_is_found() -> None:
    assert len(TEXTS) > 250
    for catalogue in CATALOGUES:
        assert any(name.startswith(f"{catalogue.__name__}.") for name, _ in TEXTS), catalogue


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[n for n, _ in TEXTS])
def test_both_languages_are_written_with_the_same_placeholders(name: str, text: Text) -> None:
    assert text.ru.strip() and text.en.strip()
    assert _fields(text.ru) == _fields(text.en)


def test_tr_picks_the_language_and_fills_the_placeholders() -> None:
    where = "Главный корпус, чт 26.11, 18:00–20:00"
    assert tr(Book.BOOKED_MANY, "ru", rooms="301, 302", where=where) == (
        "Забронированы 301, 302 (Главный корпус, чт 26.11, 18:00–20:00)"
    )
    assert tr(Book.BOOKED_ONE, "en", rooms="301", where="x") == "Booked 301 (x)"
    assert tr(Limits.END_BEFORE_START, "en") == "The end must be after the start"


def test_days_and_durations_read_as_people_write_them() -> None:
    day = dt.date(2026, 11, 26)
    assert (day_label(day, "ru"), day_label(day, "en")) == ("чт 26.11", "Thu 26 Nov")
    assert [duration(m, "ru") for m in (60, 240, 1260, 90, 30)] == [
        "1 часа", "4 часов", "21 часа", "90 минут", "30 минут",
    ]  # fmt: skip
    assert [duration(m, "en") for m in (60, 240, 1, 90)] == [
        "1 hour", "4 hours", "1 minute", "90 minutes",
    ]  # fmt: skip
