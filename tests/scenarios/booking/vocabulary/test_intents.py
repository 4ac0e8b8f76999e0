"""Intent recognition in Russian and English, with negatives and rule scores."""

from __future__ import annotations

import pytest

from core.nlu import Intent
from scenarios.booking.vocabulary import BookingIntent, score_intents
from tests.support.reading import PLACES, decide

INTENTS: list[tuple[str, str]] = [
    # book_rooms
    ("забронируй аудиторию завтра с 10 до 12", "book_rooms"),
    ("забронировать аудиторию на завтра", "book_rooms"),
    ("зарезервируй комнату на пятницу", "book_rooms"),
    ("нужна аудитория на завтра с 18 до 20", "book_rooms"),
    ("нужен кабинет в четверг с 10 до 12", "book_rooms"),
    ("хочу аудиторию на Чайковского завтра вечером с 6 до 8", "book_rooms"),
    ("займи 2 аудитории в среду с 14 до 16", "book_rooms"),
    ("помоги забронировать аудиторию завтра с 9 до 11", "book_rooms"),
    ("аудитория 301 завтра с 10 до 12", "book_rooms"),
    ("book a room", "book_rooms"),
    ("book a room tomorrow 10-12", "book_rooms"),
    ("reserve two rooms on Friday from 3pm to 5pm", "book_rooms"),
    ("I need a room for 30 people tomorrow at 6pm for two hours", "book_rooms"),
    ("get me a room on Thursday 10-12", "book_rooms"),
    ("room 207 tomorrow 9-10", "book_rooms"),
    ("в четверг с 18 до 20", "book_rooms"),
    ("tomorrow 10-12", "book_rooms"),
    # list_bookings
    ("мои бронирования", "list_bookings"),
    ("мои брони", "list_bookings"),
    ("покажи мои брони", "list_bookings"),
    ("какие у меня брони на завтра", "list_bookings"),
    ("список броней", "list_bookings"),
    ("что я забронировал", "list_bookings"),
    ("что у меня завтра", "list_bookings"),
    ("брони", "list_bookings"),
    ("show my bookings", "list_bookings"),
    ("my reservations", "list_bookings"),
    ("list bookings for Friday", "list_bookings"),
    ("what did I book for tomorrow", "list_bookings"),
    ("what do I have tomorrow", "list_bookings"),
    ("bookings", "list_bookings"),
    # cancel_booking
    ("отмени бронь на пятницу", "cancel_booking"),
    ("отмени бронирование 301 на завтра", "cancel_booking"),
    ("удали бронь на завтра", "cancel_booking"),
    ("сними бронь с 405", "cancel_booking"),
    ("cancel my booking for tomorrow", "cancel_booking"),
    ("cancel the reservation of room 301", "cancel_booking"),
    ("delete my booking on Friday", "cancel_booking"),
    # schedule_booking
    ("каждый понедельник бронируй 405 с 18 до 20", "schedule_booking"),
    ("по средам бронируй аудиторию с 18 до 20", "schedule_booking"),
    ("настрой автобронь по четвергам с 18 до 20", "schedule_booking"),
    ("every Friday book a room 10-12", "schedule_booking"),
    ("book room 301 every Monday and Wednesday from 6 to 8", "schedule_booking"),
    ("set up a recurring booking on Tuesdays 10-12", "schedule_booking"),
    # list_schedules
    ("какие у меня регулярные брони", "list_schedules"),
    ("покажи расписание автоброней", "list_schedules"),
    ("мои автоброни", "list_schedules"),
    ("автоброни", "list_schedules"),
    ("show my recurring bookings", "list_schedules"),
    ("list my schedules", "list_schedules"),
    ("what are my weekly bookings", "list_schedules"),
    # cancel_schedule
    ("отключи автобронь по средам", "cancel_schedule"),
    ("отмени регулярную бронь по понедельникам", "cancel_schedule"),
    ("выключи автобронь", "cancel_schedule"),
    ("останови еженедельную бронь", "cancel_schedule"),
    ("cancel the weekly booking on Mondays", "cancel_schedule"),
    ("stop the Friday autobooking", "cancel_schedule"),
    ("disable my recurring booking", "cancel_schedule"),
    ("turn off the schedule for Wednesdays", "cancel_schedule"),
    # help
    ("help", "help"),
    ("HELP", "help"),
    ("/help", "help"),
    ("помощь", "help"),
    ("помоги", "help"),
    ("что умеешь", "help"),
    ("что ты умеешь?", "help"),
    ("what can you do", "help"),
    ("how does this work", "help"),
    ("команды", "help"),
    # unknown
    ("какая сегодня погода", "unknown"),
    ("привет", "unknown"),
    ("hello", "unknown"),
    ("what's the weather today", "unknown"),
    ("расскажи анекдот", "unknown"),
    ("спасибо", "unknown"),
    ("ok", "unknown"),
    ("", "unknown"),
    ("   ", "unknown"),
    ("12345", "unknown"),
    ("???", "unknown"),
    ("завтра", "unknown"),
    ("с 18 до 20", "unknown"),
    ("what rooms are free tomorrow", "unknown"),
    ("сколько времени", "unknown"),
]


@pytest.mark.parametrize(("text", "intent"), INTENTS)
def test_intent(text: str, intent: str) -> None:
    assert decide(text).intent == intent


@pytest.mark.parametrize(("text", "intent"), INTENTS)
def test_scores_agree_with_the_decision(text: str, intent: str) -> None:
    scores = score_intents(text, places=PLACES)
    assert set(scores) == {*BookingIntent, *Intent}
    assert all(0.0 <= v <= 1.0 for v in scores.values())
    best = max(scores, key=scores.__getitem__)
    assert best == intent


def test_clear_commands_score_high_for_the_planner() -> None:
    scores = score_intents("забронируй 3 аудитории рядом в этот четверг с 18 до 20", places=PLACES)
    assert scores[BookingIntent.BOOK_ROOMS] >= 0.9
    runner_up = sorted(scores.values())[-2]
    assert scores[BookingIntent.BOOK_ROOMS] - runner_up > 0.3


def test_non_booking_intents_execute() -> None:
    for text in ("мои брони", "help", "отмени бронь на пятницу", "привет"):
        decision = decide(text)
        assert decision.next_action == "execute"
        assert decision.missing == []
        assert decision.clarification_question is None


def test_unknown_and_help_carry_no_slots() -> None:
    assert decide("какая сегодня погода").to_json()["slots"] == {}
    assert decide("help me book a room").intent == "book_rooms"


def test_date_and_time_alone_is_a_weak_booking() -> None:
    decision = decide("в четверг с 18 до 20")
    assert decision.intent == "book_rooms"
    assert 0.5 <= decision.confidence < 0.8  # low enough for the planner to double-check
