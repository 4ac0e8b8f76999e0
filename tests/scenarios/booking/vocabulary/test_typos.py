"""Letter case and common typos: a letter missing, doubled or swapped."""

from __future__ import annotations

import pytest

from scenarios.booking.vocabulary import booking_lexicon
from tests.support.reading import PLACES, decide, slots_of

FLAGSHIP = {"date": "2026-11-26", "start": "18:00", "end": "20:00", "rooms": 3, "adjacent": True}

FLAGSHIP_VARIANTS = [
    "забронируй 3 аудитории рядом в этот четверг с 18 до 20",
    "ЗАБРОНИРУЙ 3 АУДИТОРИИ РЯДОМ В ЭТОТ ЧЕТВЕРГ С 18 ДО 20",
    "Забронируй 3 Аудитории Рядом В Этот Четверг С 18 До 20",
    "забронирй 3 аудитории рядом в этот четверг с 18 до 20",
    "забронируй 3 аудитории рядом в этот четврег с 18 до 20",
    "забронируй 3 аудиторри рядом в этот четверг с 18 до 20",
    "забронируй 3 аудитори рядом в этот четверг с 18 до 20",
    "забронируй 3 аудитории рядомм в этот четверг с 18 до 20",
    "забронируй 3 адуитории рядом в этот четверг с 18 до 20",
    "забронируй 3 аудитории рядом в этот четвег с 18 до 20",
    "зобронируй 3 аудитории рядом в этот четверг с 18 до 20",
    "забронируй 3 аудитории рядом в этот четверг с 18:00 до 20:00",
    "забронируй 3 аудитории рядом в этот четверг 18-20",
    "забронируй  3  аудитории,  рядом,  в этот четверг, с 18 до 20!",
]


@pytest.mark.parametrize("text", FLAGSHIP_VARIANTS)
def test_flagship_survives_case_and_typos(text: str) -> None:
    decision = decide(text)
    assert decision.intent == "book_rooms"
    assert decision.to_json()["slots"] == FLAGSHIP


WORD_TYPOS: list[tuple[str, str | None]] = [
    ("бронирй", "BOOK"),
    ("забронируйй", "BOOK"),
    ("забронриуй", "BOOK"),
    ("четврег", "WD"),
    ("четверк", "WD"),
    ("пятнциу", "WD"),
    ("понедельнк", "WD"),
    ("послезавтар", "AFTER_TOMORROW"),
    ("сеглдня", "TODAY"),
    ("сгдня", None),  # two edits in a short word: not corrected
    ("завтар", "TOMORROW"),
    ("аудиторию", "ROOM"),
    ("аудиторю", "ROOM"),
    ("бронирования", "BOOKINGS"),
    ("бронированя", "BOOKINGS"),
    ("отмнеи", "CANCEL"),
    ("reserv", "BOOK"),
    ("tomorow", "TOMORROW"),
    ("tommorow", "TOMORROW"),
    ("thursdy", "WD"),
    ("wednseday", "WD"),
    ("fridya", "WD"),
    ("adjacnet", "ADJ"),
    ("bookigns", "BOOKINGS"),
    ("среди", None),
    ("there", None),
    ("погода", None),
]


@pytest.mark.parametrize(("word", "concept"), WORD_TYPOS)
def test_word_typos(word: str, concept: str | None) -> None:
    sense = booking_lexicon().sense_of(word)
    assert (sense.concept if sense is not None else None) == concept


@pytest.mark.parametrize(
    ("word", "code"),
    [("chaikovskiy", "chaikovsky"), ("чайковскго", "chaikovsky"), ("лаборатрном", "lab"),
     ("главнм", "main"), ("погода", None), ("среди", None)],
)  # fmt: skip
def test_building_typos(word: str, code: str | None) -> None:
    # buildings are not keywords
    assert booking_lexicon().sense_of(word) is None or word in ("погода", "среди")
    assert PLACES.word(word) == code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BOOK A ROOM TOMORROW 10-12", {"date": "2026-11-24", "start": "10:00", "end": "12:00"}),
        ("Book A Room On Thursdy 10AM-12PM", {"date": "2026-11-26", "start": "10:00"}),
        ("book a room tommorow from 3PM to 5PM", {"date": "2026-11-24", "end": "17:00"}),
        ("book 2 adjacnet rooms on Fridya 10-12", {"adjacent": True, "date": "2026-11-27"}),
        ("Забронируй аудиторию ЗАВТАР с 10 до 12", {"date": "2026-11-24"}),
        ("бронирй аудиторию в пятнциу с 10 до 12", {"date": "2026-11-27"}),
        ("отмнеи бронь на завтра", {"date": "2026-11-24"}),
        ("забронируй аудиторию в ёлочном? нет, в главном корпусе", {"building": "main"}),
    ],
)
def test_typos_in_full_commands(text: str, expected: dict[str, object]) -> None:
    found = slots_of(text)
    assert {k: found.get(k) for k in expected} == expected
