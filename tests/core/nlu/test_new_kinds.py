"""Kinds of commands a held-out set found misread (issue 65, item 8), as general rules:
a duration counted from a start, an English part of the day with a bare range, a question
whether one has anything on a day, a synonym for registration, and closing a registration
(never a booking's or an event's cancel). Today is Monday 2026-11-23."""

from __future__ import annotations

from datetime import date, time

import pytest

from core.scenario import Utterance
from scenarios.events.vocabulary import OPEN_REGISTRATION, EventDetails, read
from tests.support.reading import NOW, PLACES, TZ, decide


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("нужна аудитория в четверг часа на полтора, начиная с 15", time(15), time(16, 30)),
        ("займи аудиторию завтра часа на два начиная с 10", time(10), time(12)),
        ("аудиторию на пятницу минут на сорок, с 18:00", time(18), time(18, 40)),
        ("забронируй в среду с 11 часика на три", time(11), time(14)),
        ("нам бы аудиторию в среду с 14 часа на полтора", time(14), time(15, 30)),
    ],
)
def test_a_duration_said_unit_first_ends_from_the_start(text: str, start: time, end: time) -> None:
    decision = decide(text)
    assert (decision.slots.start, decision.slots.end) == (start, end)


def test_a_unit_first_duration_is_no_count_of_rooms_or_people() -> None:
    assert decide("в 15 часов на 20 человек аудиторию завтра").slots.capacity == 20
    decision = decide("забронируй на завтра в 15 часов на 2 аудитории до 17")
    assert (decision.slots.start, decision.slots.end, decision.slots.rooms) == (
        time(15),
        time(17),
        2,
    )


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("book a room thursday afternoon 3 to 5", time(15), time(17)),
        ("need a room tomorrow in the afternoon 2 to 4", time(14), time(16)),
        ("book a room friday evening 6 to 8", time(18), time(20)),
        ("book a room monday morning 9 to 11", time(9), time(11)),
    ],
)
def test_a_part_of_the_day_makes_a_bare_range_of_hours(text: str, start: time, end: time) -> None:
    decision = decide(text)
    assert (decision.slots.start, decision.slots.end) == (start, end)


def test_without_a_part_of_the_day_a_bare_three_to_five_is_still_asked() -> None:
    decision = decide("book a room on friday 3 to 5")  # maybe minutes to the hour
    assert (decision.slots.start, decision.slots.end) == (None, None)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("у меня что-нибудь есть в четверг?", date(2026, 11, 26)),
        ("у меня что-то есть на завтра", date(2026, 11, 24)),
        ("do I have anything on thursday?", date(2026, 11, 26)),
        ("have i got something booked tomorrow", date(2026, 11, 24)),
    ],
)
def test_asking_whether_one_has_anything_on_a_day_is_a_listing(text: str, day: date) -> None:
    decision = decide(text)
    assert decision.intent == "list_bookings"
    assert decision.slots.date == day


def _events(text: str) -> str | None:
    found = read(Utterance(text, NOW, TZ, PLACES), NOW.date())
    return None if found is None else str(found.intent)


@pytest.mark.parametrize(
    "text",
    [
        "открой запись на «Лекция по ML»",
        "открой приём заявок на «Лекция по ML»",
        "open sign-ups for «Лекция по ML»",
        "open enrollment for the chess event",
        "start the RSVPs for «Chess night»",
    ],
)
def test_a_synonym_for_registration_is_the_registration_intent(text: str) -> None:
    assert _events(text) == OPEN_REGISTRATION


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("open enrollment for the chess event", "chess"),
        ("открой запись на лекцию по ML", "лекцию по ml"),
        ("start the RSVPs for the chess night", "chess night"),
    ],
)
def test_the_synonym_is_not_taken_for_the_events_name(text: str, event: str) -> None:
    found = read(Utterance(text, NOW, TZ, PLACES), NOW.date())
    assert found is not None and isinstance(found.details, EventDetails)
    assert found.details.event == event


@pytest.mark.parametrize(
    "text",
    [
        "закрой регистрацию на «Лекция по ML»",
        "отмени регистрацию на мероприятие «Лекция»",
        "останови регистрацию на лекцию в четверг",
        "отключи регистрацию на лекцию",
        "close registration for the chess event",
        "stop registrations for Friday's talk",
        "close the sign-ups for «Chess night»",
        "останови регистрацию на мастер-класс",  # «класс» is a room word: still no cancel
    ],
)
def test_closing_a_registration_cancels_nothing(text: str) -> None:
    assert _events(text) not in ("cancel_event", OPEN_REGISTRATION)
    assert decide(text).intent not in ("cancel_booking", "cancel_schedule")


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("how many sign-ups for «Chess night»", "Chess night"),
        ("сколько регистраций на «Лекция»", "Лекция"),
        ("сколько заявок на «Лекция»", "Лекция"),
        ("how many RSVPs for «Chess night»", "Chess night"),
    ],
)
def test_counting_a_registration_by_a_synonym_is_counting_registrations(
    text: str, event: str
) -> None:
    found = read(Utterance(text, NOW, TZ, PLACES), NOW.date())
    assert found is not None and found.intent == "count_registrations"
    assert isinstance(found.details, EventDetails) and found.details.event == event
