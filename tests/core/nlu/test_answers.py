"""parse_slot: answers to clarifying questions."""

from __future__ import annotations

from datetime import date, time

import pytest

from core.errors import ClubError
from core.nlu import NLUError, Recurrence, SlotName, SlotParseError, parse_slot, question_for
from core.nlu.decision import Lang
from tests.support.reading import NOW, PLACES, TZ


def answer(name: SlotName, text: str, lang: Lang = "ru") -> object:
    return parse_slot(name, text, now=NOW, tz=TZ, lang=lang, places=PLACES)


GOOD: list[tuple[SlotName, str, object]] = [
    ("date", "в четверг", date(2026, 11, 26)),
    ("date", "27.11", date(2026, 11, 27)),
    ("date", "завтра", date(2026, 11, 24)),
    ("date", "сегодня", date(2026, 11, 23)),
    ("date", "послезавтра", date(2026, 11, 25)),
    ("date", "в следующую среду", date(2026, 12, 2)),
    ("date", "2 декабря", date(2026, 12, 2)),
    ("date", "Nov 27", date(2026, 11, 27)),
    ("date", "next Friday", date(2026, 12, 4)),
    ("date", "четврег", date(2026, 11, 26)),
    ("start", "18", time(18, 0)),
    ("start", "в 18:30", time(18, 30)),
    ("start", "6pm", time(18, 0)),
    ("start", "в 7 вечера", time(19, 0)),
    ("start", "в 9", time(9, 0)),
    ("start", "3", time(15, 0)),
    ("start", "07:00", time(7, 0)),
    ("start", "полдень", time(12, 0)),
    ("end", "до 20", time(20, 0)),
    ("end", "20:00", time(20, 0)),
    ("end", "until 9pm", time(21, 0)),
    ("rooms", "3", 3),
    ("rooms", "три", 3),
    ("rooms", "две аудитории", 2),
    ("rooms", "one", 1),
    ("rooms", "a room", 1),
    ("capacity", "40", 40),
    ("capacity", "на 40 человек", 40),
    ("capacity", "twenty-five people", 25),
    ("building", "чайковского", "chaikovsky"),
    ("building", "На Чайковского", "chaikovsky"),
    ("building", "главный", "main"),
    ("building", "в главном корпусе", "main"),
    ("building", "лабораторный", "lab"),
    ("building", "Chaikovsky building", "chaikovsky"),
    ("building", "lab", "lab"),
    ("room", "301", ["301"]),
    ("room", "аудитория 5", ["5"]),
    ("room", "301 и 302", ["301", "302"]),
    ("room", "12", ["12"]),
    ("adjacent", "да", True),
    ("adjacent", "рядом", True),
    ("adjacent", "нет", False),
    ("adjacent", "yes", True),
    ("recurrence", "по понедельникам и средам", Recurrence(weekdays=["mon", "wed"])),
    ("recurrence", "четверг", Recurrence(weekdays=["thu"])),
    ("recurrence", "Monday and Friday", Recurrence(weekdays=["mon", "fri"])),
]


@pytest.mark.parametrize(("name", "text", "expected"), GOOD)
def test_answer_parses(name: SlotName, text: str, expected: object) -> None:
    assert answer(name, text) == expected


BAD: list[tuple[SlotName, str, Lang, str]] = [
    ("date", "в прошлую пятницу", "ru", "Эта дата уже прошла"),
    ("date", "вчера", "ru", "Эта дата уже прошла"),
    ("date", "last Friday", "en", "That date has already passed"),
    ("date", "когда-нибудь", "ru", "Не понял дату — например, «завтра» или «27.11»"),
    ("date", "31.11", "ru", "Не понял дату — например, «завтра» или «27.11»"),
    ("start", "вечером", "ru", "Не понял время — например, «18:00»"),
    ("start", "25", "en", "I could not read a time, e.g. 18:00"),
    ("start", "", "en", "I could not read a time, e.g. 18:00"),
    ("rooms", "много", "ru", "Нужно число"),
    ("rooms", "50", "ru", "Можно от 1 до 20 аудиторий"),
    ("rooms", "0", "en", "From 1 to 20 rooms"),
    ("capacity", "0", "en", "A number, please"),
    # issue 16: a sign or a huge count is an error, never read as another number
    ("rooms", "-5", "ru", "Можно от 1 до 20 аудиторий"),
    ("rooms", "миллион", "ru", "Можно от 1 до 20 аудиторий"),
    ("rooms", "9" * 400, "en", "From 1 to 20 rooms"),
    ("capacity", "-5", "en", "A number, please"),
    ("building", "на луне", "ru", "Не знаю такой корпус"),
    ("room", "любую", "ru", "Не понял номер аудитории"),
    ("adjacent", "может быть", "ru", "Ответьте «да» или «нет»"),
    ("recurrence", "иногда", "ru", "Не понял дни недели"),
]


@pytest.mark.parametrize(("name", "text", "lang", "reason"), BAD)
def test_bad_answers_raise_with_a_reason(
    name: SlotName, text: str, lang: Lang, reason: str
) -> None:
    with pytest.raises(SlotParseError) as caught:
        answer(name, text, lang)
    assert str(caught.value) == reason


def test_error_hierarchy() -> None:
    assert issubclass(SlotParseError, NLUError)
    assert issubclass(NLUError, ClubError)


@pytest.mark.parametrize(
    ("slot", "ru", "en"),
    [
        ("date", "На какую дату?", "For which date?"),
        ("start", "Во сколько начать?", "What time should it start?"),
        ("end", "До скольки?", "Until what time?"),
        ("building", "В каком корпусе?", "In which building?"),
        ("rooms", "Сколько аудиторий нужно?", "How many rooms do you need?"),
        ("capacity", "На сколько человек?", "For how many people?"),
        ("room", "Какая аудитория?", "Which room?"),
        ("recurrence", "По каким дням недели?", "On which days of the week?"),
        ("adjacent", "Аудитории должны быть рядом?", "Should the rooms be next to each other?"),
    ],
)
def test_questions(slot: SlotName, ru: str, en: str) -> None:
    assert question_for(slot, "ru") == ru
    assert question_for(slot, "en") == en
