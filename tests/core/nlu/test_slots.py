"""Counts, adjacency, capacity, buildings, room numbers and recurrence."""

from __future__ import annotations

import pytest

from tests.support.reading import decide

COUNTS: list[tuple[str, int]] = [
    ("забронируй аудиторию завтра с 10 до 12", 1),
    ("забронируй одну аудиторию завтра с 10 до 12", 1),
    ("забронируй две аудитории завтра с 10 до 12", 2),
    ("забронируй 2 аудитории завтра с 10 до 12", 2),
    ("забронируй три аудитории завтра с 10 до 12", 3),
    ("забронируй четыре свободные аудитории завтра с 10 до 12", 4),
    ("забронируй пять комнат завтра с 10 до 12", 5),
    ("забронируй пару аудиторий завтра с 10 до 12", 2),
    ("забронируй 3 соседние аудитории завтра с 10 до 12", 3),
    ("book a room tomorrow 10-12", 1),
    ("book one room tomorrow 10-12", 1),
    ("book two rooms tomorrow 10-12", 2),
    ("book 3 rooms tomorrow 10-12", 3),
    ("book three adjacent rooms tomorrow 10-12", 3),
    ("book a couple of rooms tomorrow 10-12", 2),
    ("book ten rooms tomorrow 10-12", 10),
    ("book two free adjacent rooms tomorrow 10-12", 2),
    ("забронируй аудитории 301 и 302 завтра с 10 до 12", 2),
    ("book rooms 301, 302 and 303 tomorrow 10-12", 3),
]


@pytest.mark.parametrize(("text", "rooms"), COUNTS)
def test_room_counts(text: str, rooms: int) -> None:
    assert decide(text).slots.rooms == rooms


ADJACENT = [
    "забронируй 2 аудитории рядом завтра с 10 до 12",
    "забронируй 2 аудитории подряд завтра с 10 до 12",
    "забронируй 2 соседние аудитории завтра с 10 до 12",
    "забронируй 2 аудитории рядом друг с другом завтра с 10 до 12",
    "забронируй 2 смежные аудитории завтра с 10 до 12",
    "book 2 adjacent rooms tomorrow 10-12",
    "book 2 rooms next to each other tomorrow 10-12",
    "book 2 neighbouring rooms tomorrow 10-12",
    "book 2 neighboring rooms tomorrow 10-12",
    "book 2 rooms side by side tomorrow 10-12",
    "book 2 rooms in a row tomorrow 10-12",
    "book 2 consecutive rooms tomorrow 10-12",
]


@pytest.mark.parametrize("text", ADJACENT)
def test_adjacency(text: str) -> None:
    decision = decide(text)
    assert decision.slots.adjacent is True
    assert decision.slots.rooms == 2


@pytest.mark.parametrize(
    "text", ["забронируй 2 аудитории завтра с 10 до 12", "book 2 rooms next Monday 10-12"]
)
def test_no_adjacency_unless_said(text: str) -> None:
    assert decide(text).slots.adjacent is None


CAPACITY: list[tuple[str, int]] = [
    ("забронируй аудиторию на 40 человек завтра с 10 до 12", 40),
    ("забронируй аудиторию на 60 человек", 60),
    ("забронируй аудиторию на сорок человек", 40),
    ("забронируй аудиторию на двадцать пять человек", 25),
    ("забронируй аудиторию на 30 мест", 30),
    ("забронируй аудиторию вместимостью 50", 50),
    ("book a room for 25 people tomorrow 10-12", 25),
    ("book a room for 120 people", 120),
    ("book a room with 30 seats", 30),
    ("book a room for twenty-five people", 25),
]


@pytest.mark.parametrize(("text", "capacity"), CAPACITY)
def test_capacity(text: str, capacity: int) -> None:
    decision = decide(text)
    assert decision.slots.capacity == capacity
    assert decision.slots.room is None


BUILDING_CASES: list[tuple[str, str]] = [
    ("забронируй аудиторию в главном корпусе", "main"),
    ("забронируй аудиторию в Главном", "main"),
    ("забронируй аудиторию в главный корпус", "main"),
    ("забронируй аудиторию на Чайковского", "chaikovsky"),
    ("забронируй аудиторию в корпусе на Чайковского", "chaikovsky"),
    ("забронируй аудиторию в лабораторном корпусе", "lab"),
    ("забронируй аудиторию в лабораторный", "lab"),
    ("book a room in the main building", "main"),
    ("book a room in Chaikovsky building", "chaikovsky"),
    ("book a room in the Tchaikovsky building", "chaikovsky"),
    ("book a room in the lab", "lab"),
    ("book a room in the laboratory building", "lab"),
]


@pytest.mark.parametrize(("text", "code"), BUILDING_CASES)
def test_buildings(text: str, code: str) -> None:
    assert decide(text).slots.building == code


ROOM_NUMBERS: list[tuple[str, list[str]]] = [
    ("нужна 301 в среду с 12 до 13", ["301"]),
    ("забронируй аудиторию 301а завтра с 10 до 12", ["301а"]),
    ("забронируй аудиторию № 5 завтра с 10 до 12", ["5"]),
    ("book room 207 tomorrow 10-12", ["207"]),
    ("book room #12 tomorrow 10-12", ["12"]),
    ("book rooms 301, 302 tomorrow 10-12", ["301", "302"]),
    ("забронируй 1205 на завтра с 10 до 12", ["1205"]),
]


@pytest.mark.parametrize(("text", "rooms"), ROOM_NUMBERS)
def test_room_numbers(text: str, rooms: list[str]) -> None:
    decision = decide(text)
    assert decision.slots.room == rooms
    assert decision.slots.rooms == len(rooms)


RECURRENCE: list[tuple[str, list[str]]] = [
    ("каждый четверг бронируй аудиторию с 18 до 20", ["thu"]),
    ("каждую среду бронируй аудиторию с 18 до 20", ["wed"]),
    ("каждое воскресенье бронируй аудиторию с 18 до 20", ["sun"]),
    ("по понедельникам и средам бронируй аудиторию с 18 до 20", ["mon", "wed"]),
    ("по вторникам бронируй аудиторию с 18 до 20", ["tue"]),
    ("бронируй аудиторию по пятницам с 18 до 20", ["fri"]),
    ("каждый понедельник, среду и пятницу бронируй 301 с 18 до 20", ["mon", "wed", "fri"]),
    ("по будням бронируй аудиторию с 9 до 10", ["mon", "tue", "wed", "thu", "fri"]),
    ("еженедельно в четверг бронируй аудиторию с 18 до 20", ["thu"]),
    ("every Friday book a room 10-12", ["fri"]),
    ("every Monday and Wednesday book a room 10-12", ["mon", "wed"]),
    ("weekly on Mondays book a room 10-12", ["mon"]),
    ("book a room on Tuesdays and Thursdays 10-12", ["tue", "thu"]),
    ("book a room every week on Thursday 10-12", ["thu"]),
    ("book a room every day 10-12", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
    ("book a room on weekdays 10-12", ["mon", "tue", "wed", "thu", "fri"]),
]


@pytest.mark.parametrize(("text", "weekdays"), RECURRENCE)
def test_recurrence(text: str, weekdays: list[str]) -> None:
    decision = decide(text)
    assert decision.intent == "schedule_booking"
    assert decision.slots.recurrence is not None
    assert decision.slots.recurrence.weekdays == weekdays
    assert decision.slots.date is None
    assert decision.missing == []


def test_schedule_without_recurrence_asks_for_it() -> None:
    decision = decide("настрой автобронь с 18 до 20")
    assert decision.intent == "schedule_booking"
    assert decision.missing == ["recurrence"]
    assert decision.clarification_question == "По каким дням недели?"
