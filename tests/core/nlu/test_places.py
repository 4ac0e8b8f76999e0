"""Buildings from a catalogue: names in case forms, profile words, numbers and letters,
ambiguity, and that a building's number is never read as a time, count or room."""

from __future__ import annotations

import itertools
from datetime import date, time

import pytest

from core.nlu import Places, SlotParseError, parse_slot
from core.nlu.analysis import analyze
from core.nlu.decision import Decision, Lang
from core.site.models import Building
from scenarios.booking.vocabulary import BookingIntent, parse, score_intents
from tests.support.catalogues import foreign_places, numbered_places
from tests.support.reading import NOW, PLACES, TZ

FOREIGN = foreign_places()
NUMBERED = numbered_places()
TOMORROW = date(2026, 11, 24)
THURSDAY = date(2026, 11, 26)


def decide(text: str, places: Places) -> Decision:
    return parse(text, now=NOW, tz=TZ, places=places)


def answer(text: str, places: Places, lang: Lang = "ru") -> object:
    return parse_slot("building", text, now=NOW, tz=TZ, lang=lang, places=places)


# What the code's table had for the reference portal: every form still names its building.
OLD_ALIASES: dict[str, str] = {
    "main": "главный главном главного главная главной главк гк центральный центральном "
    "центрального main central",
    "chaikovsky": "чайковского чайковский чайковском чайка чайке chaikovsky chaikovskogo "
    "tchaikovsky tchaikovskogo chaykovskogo chaikovskiy tchaikovskiy",
    "lab": "лабораторный лабораторном лабораторного лабораторная лабораторной лаб лабе лабы "
    "лабка lab labs laboratory laboratories",
}
OLD_CASES = [(word, code) for code, words in OLD_ALIASES.items() for word in words.split()]


@pytest.mark.parametrize(("word", "code"), OLD_CASES)
def test_reference_portal_keeps_every_old_alias(word: str, code: str) -> None:
    assert PLACES.word(word) == code
    assert decide(f"забронируй аудиторию {word} завтра с 18 до 20", PLACES).slots.building == code
    assert answer(word, PLACES) == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("в библиотеке", "lib"),
        ("библиотеку", "lib"),
        ("библиотека", "lib"),
        ("в библиотекее", "lib"),  # a typo
        ("в корпусе Б", "b"),
        ("корпус б", "b"),
    ],
)
def test_foreign_catalogue_names(text: str, code: str) -> None:
    assert decide(f"забронируй аудиторию {text} завтра с 10 до 12", FOREIGN).slots.building == code


def test_foreign_catalogue_flagship() -> None:
    decision = decide("забронируй аудиторию в библиотеке завтра с 10 до 12", FOREIGN)
    assert decision.intent == "book_rooms"
    slots = decision.slots
    assert (slots.building, slots.date, slots.start, slots.end, slots.rooms) == (
        "lib", TOMORROW, time(10), time(12), 1,
    )  # fmt: skip


@pytest.mark.parametrize(
    "words", [*(word for word, _ in OLD_CASES[::3]), "на чайковского", "в главном корпусе"]
)
def test_reference_portal_words_mean_nothing_elsewhere(words: str) -> None:
    decision = decide(f"забронируй аудиторию {words} завтра с 18 до 20", FOREIGN)
    assert decision.slots.building is None
    assert (decision.slots.start, decision.slots.end) == (time(18), time(20))
    assert decide(f"забронируй аудиторию {words}", PLACES).slots.building is not None
    with pytest.raises(SlotParseError):
        answer(words, FOREIGN)


def test_two_catalogues_in_one_process_keep_their_own_caches() -> None:
    for _ in range(2):
        assert FOREIGN.word("библиотеке") == "lib" and PLACES.word("библиотеке") is None
        assert PLACES.word("главном") == "main" and FOREIGN.word("главном") is None
        assert NUMBERED.word("library") == "lib" and FOREIGN.word("library") is None


SEVEN_RU = ["7 корпус", "7-й корпус", "в 7-м корпусе", "в 7м корпусе", "корпус 7", "корпус №7",
            "в корпусе № 7", "седьмой корпус", "в седьмом корпусе", "седьмого корпуса"]  # fmt: skip
SEVEN_EN = ["building 7", "bldg 7", "bldg. 7", "building #7", "7th building",
            "the seventh building", "building seven"]  # fmt: skip


@pytest.mark.parametrize("phrase", SEVEN_RU + SEVEN_EN)
def test_numbered_building_forms(phrase: str) -> None:
    assert Places.building_in(NUMBERED.tag(analyze(phrase))) == "7"
    assert answer(phrase, NUMBERED) == "7"


@pytest.mark.parametrize("phrase", ["корпус 3", "в 3-м корпусе", "третий корпус",
                                    "в третьем корпусе", "building 3", "3rd building"])  # fmt: skip
def test_building_named_korpus_3(phrase: str) -> None:
    decision = decide(f"забронируй аудиторию {phrase} завтра с 10 до 12", NUMBERED)
    assert (decision.slots.building, decision.slots.start) == ("3", time(10))


@pytest.mark.parametrize(
    "name", ["7", "Корпус 7", "Корпус №7", "7-й корпус", "Building 7", "Bldg 7", "корп. 7"]
)
def test_a_building_named_by_its_number(name: str) -> None:
    places = Places.build([Building(code="x", name=name), Building(code="lib", name="Library")])
    for phrase in ("в 7-м корпусе", "building 7", "седьмой корпус", "корпус 7"):
        assert Places.building_in(places.tag(analyze(phrase))) == "x", phrase


def test_numbered_building_leaves_times_counts_and_rooms_alone() -> None:
    ru = decide("забронируй 2 аудитории рядом в 7-м корпусе в четверг с 18 до 20", NUMBERED)
    assert ru.intent == "book_rooms"
    s = ru.slots
    assert (s.building, s.rooms, s.adjacent, s.date, s.start, s.end) == (
        "7", 2, True, THURSDAY, time(18), time(20),
    )  # fmt: skip
    en = decide("book room 301 in building 3 tomorrow 9-10", NUMBERED)
    assert en.intent == "book_rooms"
    s = en.slots
    assert (s.building, s.room, s.rooms, s.date, s.start, s.end) == (
        "3", ["301"], 1, TOMORROW, time(9), time(10),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "building", "start", "end", "rooms"),
    [
        ("забронируй в 7 корпусе с 18 до 20", "7", time(18), time(20), 1),
        ("забронируй в седьмом корпусе 3 аудитории в 7 вечера на час", "7", time(19), time(20), 3),
        ("забронируй с 10 до 12 корпус 3", "3", time(10), time(12), 1),
        ("забронируй в корпусе 2 аудитории с 18 до 20", None, time(18), time(20), 2),
        ("забронируй в 5 корпусе с 18 до 20", None, time(18), time(20), 1),  # no building 5
        ("забронируй 7 аудиторий в четверг с 18 до 20", None, time(18), time(20), 7),
        ("забронируй аудиторию в четверг в 7", None, time(19), None, 1),  # a bare 7 is a time
        ("book 2 rooms in the seventh building from 3pm to 5pm", "7", time(15), time(17), 2),
        ("book a room in building 7 at 7pm for an hour", "7", time(19), time(20), 1),
    ],
)
def test_numbers_beside_a_building(
    text: str, building: str | None, start: time, end: time | None, rooms: int
) -> None:
    s = decide(text, NUMBERED).slots
    assert (s.building, s.start, s.end, s.rooms) == (building, start, end, rooms)


def test_a_bare_number_is_no_building_but_answers_which_building() -> None:
    assert decide("забронируй аудиторию 7 завтра", NUMBERED).slots.building is None
    assert answer("7", NUMBERED) == "7"
    assert answer("в седьмом", NUMBERED) == "7"
    assert answer("3", NUMBERED) == "3"
    assert answer("библиотека", NUMBERED) == "lib"
    assert answer("Library", NUMBERED, "en") == "lib"
    assert answer("in the seventh", NUMBERED, "en") == "7"
    with pytest.raises(SlotParseError, match="Не знаю такой корпус"):
        answer("5", NUMBERED)
    with pytest.raises(SlotParseError):
        answer("7", PLACES)  # the reference portal has no building 7
    with pytest.raises(SlotParseError, match="I do not know that building"):
        answer("building 5", NUMBERED, "en")


def test_letters_read_only_beside_a_building_noun() -> None:
    places = Places.build(
        [Building(code="v", name="Корпус В"), Building(code="a", name="Корпус А")]
    )
    s = decide("забронируй аудиторию в корпусе В с 18 до 20", places).slots
    assert (s.building, s.start, s.end) == ("v", time(18), time(20))
    s = decide("забронируй аудиторию в корпусе в 18:00", places).slots
    assert (s.building, s.start) == (None, time(18))
    assert decide("забронируй аудиторию а в четверг с 18 до 20", places).slots.building is None
    assert answer("В", places) == "v" and answer("корпус а", places) == "a"


def test_a_word_of_two_buildings_names_neither_but_a_whole_name_wins() -> None:
    places = Places.build(
        [
            Building(code="ng", name="Новый главный корпус"),
            Building(code="nl", name="Новый лабораторный корпус"),
            Building(code="lib", name="Библиотека"),
            Building(code="lib2", name="Библиотека 2"),
            Building(code="x", name="Корпус X", words=("чайка",)),
            Building(code="y", name="Корпус Y", words=("чайка",)),
        ]
    )
    assert places.word("новом") is None and places.word("новый") is None
    assert places.word("главном") == "ng" and places.word("лабораторного") == "nl"
    assert places.word("чайка") is None
    assert places.word("библиотеке") == "lib"  # the whole one-word name beats «Библиотека 2»
    with pytest.raises(SlotParseError):
        answer("в новом корпусе", places)
    assert answer("в новом главном корпусе", places) == "ng"
    assert answer("в библиотеке", places) == "lib"
    assert answer("в библиотеке 2", places) == "lib2"
    same = Places.build([Building(code="p", name="7"), Building(code="q", name="Корпус 7")])
    with pytest.raises(SlotParseError):
        answer("7 корпус", same)


def test_empty_places_know_no_building() -> None:
    empty = Places.empty()
    assert empty.codes == ()
    toks = analyze("забронируй аудиторию в главном корпусе")
    assert empty.tag(toks) is toks
    assert decide("забронируй аудиторию в главном корпусе завтра", empty).slots.building is None


def test_scores_see_the_building_not_a_time() -> None:
    text = "аудитория в 7-м корпусе"  # a room and a time would score 0.7 for booking
    assert score_intents(text, places=NUMBERED)[BookingIntent.BOOK_ROOMS] < 0.5
    assert decide(text, NUMBERED).slots.start is None


# --- property-style: every building phrase × times × counts keeps every slot right ------

_PHRASES = {"7": SEVEN_RU + SEVEN_EN, "3": ["корпус 3", "в третьем корпусе", "building 3"],
            "lib": ["в библиотеке", "library"]}  # fmt: skip
_TIMES = [
    ("с 18 до 20", time(18), time(20)),
    ("10-12", time(10), time(12)),
    ("from 3pm to 5pm", time(15), time(17)),
    ("в 19:00 на 2 часа", time(19), time(21)),
]
_COUNTS = [("", 1), ("2 аудитории", 2), ("three rooms", 3)]


@pytest.mark.parametrize("code", list(_PHRASES))
def test_building_phrases_combine_with_any_time_and_count(code: str) -> None:
    for phrase, (when, start, end), (count, rooms) in itertools.product(
        _PHRASES[code], _TIMES, _COUNTS
    ):
        for order in ((count, phrase, when), (when, count, phrase), (phrase, when, count)):
            text = "book " + " ".join(p for p in order if p) + " tomorrow"
            s = decide(text, NUMBERED).slots
            got = (s.building, s.start, s.end, s.rooms, s.date)
            assert got == (code, start, end, rooms, TOMORROW), text


def test_tag_is_idempotent() -> None:
    for text in SEVEN_RU + SEVEN_EN + ["в библиотеке с 18 до 20", "корпус 3 аудитория 301"]:
        once = NUMBERED.tag(analyze(text))
        assert NUMBERED.tag(once) == once
        assert sum(t.concept == "BLD" for t in once) == 1, text
