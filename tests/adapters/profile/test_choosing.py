"""A pick's alternatives (issue 65, item 3): one written alone or a list of them; the
first that reads is used, a later one told as a stand-in (promoted when its step
passes); a column found by its header's words only when one header holds them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adapters.profile.choosing import chosen, column_index
from adapters.profile.healing import promote_candidates
from adapters.profile.loader import parse_site_profile
from adapters.profile.model import MyBookings
from adapters.profile.parts import Cond, Pick
from adapters.profile.reading import Item, holds, value
from adapters.profile.rows import row_picks
from tests.adapters.profile.profile_text import FILE, TEXT


class _Stands:
    """``Finder.stood_in`` as the choice tells it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int]] = []

    def stood_in(self, path: str, found: object, index: int) -> None:
        if index:
            self.told.append((path, index))


_LIST = {
    "open": {"url": "/my"},
    "table": [{"css": "table"}],
    "date": {"column": "Дата", "format": "dmy"},
    "time": {"column": "Время", "format": "span"},
    "purpose": {"column": "Цель"},
}
_TITLES = ["№ брони", "Дата", "Время", "Цель", "Действия"]
_ROW = [Item(text=t) for t in ("17", "27.11.2026", "10:00–11:00", "клуб", "Отменить")]


def test_a_column_is_its_header_else_the_one_header_holding_its_words() -> None:
    assert column_index("Дата", ["Дата", "Дата создания"]) == 0  # as written, first
    assert column_index("номер", ["Корпус", "Номер брони"]) == 1
    assert column_index("№", _TITLES) == 0
    assert column_index("Номер", _TITLES) is None  # no header has the word


def test_two_headers_holding_a_columns_words_are_no_column_never_a_guess() -> None:
    titles = ["Время начала", "Время окончания", "Цель"]
    assert column_index("Время", titles) is None
    pick = Pick(column="Время", format="span")
    row = [Item(text="10:00"), Item(text="11:00"), Item(text="клуб")]
    assert value(pick, Item(), columns=titles, row=row) == ""


def test_one_pick_or_a_list_of_alternatives_both_load() -> None:
    one = MyBookings.model_validate({**_LIST, "number": {"column": "Номер"}})
    several = MyBookings.model_validate({**_LIST, "number": [{"column": "Номер"}, {"column": "№"}]})
    assert one.number == (Pick(column="Номер"),)
    assert several.number == (Pick(column="Номер"), Pick(column="№"))
    with pytest.raises(ValidationError, match="one at least"):
        MyBookings.model_validate({**_LIST, "number": []})
    with pytest.raises(ValidationError, match="span"):
        MyBookings.model_validate(
            {**_LIST, "number": {"column": "№"}, "time": [{"column": "Время", "format": "span"},
                                                         {"column": "Время"}]}
        )  # fmt: skip


def test_the_first_alternative_that_reads_the_list_is_used_a_later_one_told() -> None:
    spec = MyBookings.model_validate({**_LIST, "number": [{"column": "Номер"}, {"column": "№"}]})
    stands = _Stands()
    picks = row_picks(spec, [(Item(), _ROW)], _TITLES, told=stands)
    assert picks.number == Pick(column="№")
    assert value(picks.number, Item(), columns=_TITLES, row=_ROW) == "17"
    assert stands.told == [("my_bookings.number", 1)]


def test_no_alternative_reading_is_the_first_and_nothing_told() -> None:
    spec = MyBookings.model_validate(
        {**_LIST, "number": [{"column": "Номер"}, {"column": "Бронь"}]}
    )
    stands = _Stands()
    picks = row_picks(spec, [(Item(), _ROW)], _TITLES, told=stands)
    assert picks.number == Pick(column="Номер") and stands.told == []


def test_a_free_test_is_the_first_that_finds_a_free_cell() -> None:
    cells = [Item(text="занято"), Item(title="Ауд. 101, 10:00–10:30 — свободно")]
    tests = (Cond(has="a[href]"), Cond(text="свободно"))
    stands = _Stands()
    free = chosen(tests, lambda c: any(holds(c, cell) for cell in cells), path="p", told=stands)
    assert free == Cond(text="свободно") and stands.told == [("p", 1)]


def test_a_pick_alternative_written_on_one_line_is_promoted_there() -> None:
    line = "  number: [{column: Номер}, {column: №}]"
    assert TEXT.count(line) == 1
    healed, written = promote_candidates(TEXT, {"my_bookings.number": 1})
    assert healed == TEXT.replace(line, "  number: [{column: №}, {column: Номер}]")  # comment too
    assert written == {"my_bookings.number"}
    assert parse_site_profile(healed, FILE).profile.my_bookings.number[0] == Pick(column="№")
