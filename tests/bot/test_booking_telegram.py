"""Booking through Telegram end to end: the real bot (aiogram dispatcher polling the fake
Bot API server) on the real core and scenarios, real storage, real Chromium against the
reference portal, all on one manual clock (Monday 23.11.2026, 10:00 in Moscow)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest

from bot.factory import BotApp
from core.clock import ManualClock
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage
from tests.support.clocks import ticking
from tests.support.portal import chaos_served, portal_bookings, set_quirks
from tests.support.refportal import refportal_system

FLAGSHIP = "забронируй 3 аудитории рядом в этот четверг с 18 до 20"
STEPS = ["Вход на портал", "Поиск свободных аудиторий", "Бронирование", "Проверка в «Мои брони»"]
WAIT = 90.0  # generous: Chromium on a busy two-core machine

MessageCheck = Callable[[StoredMessage], bool]


@pytest.fixture
async def app(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> AsyncIterator[BotApp]:
    """The bot with every product scenario, booking through the club's portal account."""
    async with product_bot(tg, storage, refportal_system(portal_url), clock=clock) as running:
        yield running


def has(text: str) -> MessageCheck:
    return lambda m: text in (m.text or m.caption or "")


def starts(text: str) -> MessageCheck:
    return lambda m: (m.text or "").startswith(text)


def progress_of(user: SimUser, title: str) -> StoredMessage:
    return next(m for m in user.messages if (m.text or "").startswith(title + "\n"))


def done_steps(title: str) -> str:
    return "\n".join([title, *(f"✓ {step}" for step in STEPS)])


def rooms_of(bookings: list[dict[str, Any]]) -> list[int]:
    return sorted(int(b["room_number"]) for b in bookings)


async def test_flagship_booked_by_tapping_the_building(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(FLAGSHIP)
    question = await user.wait_for_message(has("В каком корпусе?"), timeout=WAIT)
    assert question.labels == [
        "Главный корпус",
        "Корпус на Чайковского",
        "Лабораторный корпус",
        "Любой",
        "Другое…",
        "Отмена",
    ]
    answer = await user.wait_for_answer(await user.tap("Корпус на Чайковского"))
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    assert answer.text == "Принято: Корпус на Чайковского"
    assert question.text == "В каком корпусе?\n\n→ Корпус на Чайковского"
    assert question.reply_markup is None
    booked = await portal_bookings(portal_url, user="club")
    numbers = rooms_of(booked)
    assert len(numbers) == 3 and numbers == list(range(numbers[0], numbers[0] + 3))
    assert len({n // 100 for n in numbers}) == 1  # one floor
    assert {(b["building"], b["date"], b["start"], b["end"]) for b in booked} == {
        ("chaikovsky", "2026-11-26", "18:00", "20:00")
    }
    rooms = ", ".join(str(n) for n in numbers)
    assert done.text == f"Забронированы {rooms} (Корпус на Чайковского, чт 26.11, 18:00–20:00)"
    progress = progress_of(user, "Бронирование аудиторий")
    assert progress.text == done_steps("Бронирование аудиторий")
    assert progress.edits, "the progress message is edited in place, not sent anew"
    assert progress.message_id < done.message_id
    assert len([m for m in user.messages if starts("Бронирование аудиторий")(m)]) == 1


async def test_list_then_cancel_with_confirmation(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 205 в Чайковского в четверг с 18 до 20")
    await user.wait_for_message(has("Забронирована 205"), timeout=WAIT)
    assert rooms_of(await portal_bookings(portal_url, user="club")) == [205]

    await user.send("/bookings")
    listing = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    assert listing.text == "Ваши брони:\n• Чт 26.11 18:00–20:00, Корпус на Чайковского: 205"
    # /bookings and /schedules are the booking job's own commands, in the menu after /cancel
    # in the order its scenarios register
    [menu] = [
        c.params for c in tg.calls_of("setMyCommands") if c.params.get("language_code") == "ru"
    ]
    entries = [(c["command"], c["description"]) for c in menu["commands"]]
    assert entries[3:6] == [
        ("cancel", "Отменить текущую задачу"),
        ("bookings", "Мои брони"),
        ("schedules", "Регулярные брони"),
    ]
    await user.send("мои брони")
    again = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    assert again.message_id != listing.message_id and again.text == listing.text

    await user.send("отмени бронь 205 в четверг")
    confirm = await user.wait_for_message(has("Отменить 205"), timeout=WAIT)
    assert confirm.text == "Отменить 205, Корпус на Чайковского, чт 26.11 18:00–20:00?"
    assert confirm.labels[:2] == ["Да", "Нет"]
    assert await portal_bookings(portal_url, user="club") != []  # nothing before «Да»
    await user.wait_for_answer(await user.tap("Да"))
    done = await user.wait_for_message(has("Отменена бронь"), timeout=WAIT)
    assert done.text == "Отменена бронь: 205, Корпус на Чайковского, чт 26.11 18:00–20:00."
    assert await portal_bookings(portal_url, user="club") == []
    assert confirm.reply_markup is None


async def test_the_rooms_of_one_request_are_listed_and_cancelled_as_one(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 3 аудитории рядом в Чайковского в четверг с 18 до 20")
    await user.wait_for_message(has("Забронированы"), timeout=WAIT)
    first, second, third = (
        str(n) for n in rooms_of(await portal_bookings(portal_url, user="club"))
    )
    await user.send("/bookings")
    listing = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    when = "Чт 26.11 18:00–20:00, Корпус на Чайковского"
    assert listing.text == f"Ваши брони:\n• {when}: {first}, {second}, {third}"

    # One room of the three can be picked (here kept after all, with «Нет»)...
    await user.send("отмени бронь в четверг")
    rooms = await user.wait_for_message(has("Отменить все аудитории этой брони"), timeout=WAIT)
    assert rooms.labels[:4] == [
        "Отменить все три",
        f"Только {first}",
        f"Только {second}",
        f"Только {third}",
    ]
    await user.wait_for_answer(await user.tap(f"Только {second}"))
    one = f"{second}, Корпус на Чайковского, чт 26.11 18:00–20:00"
    await user.wait_for_message(has(f"Отменить {one}?"), timeout=WAIT)
    await user.wait_for_answer(await user.tap("Нет"))
    await user.wait_for_message(has("ничего не отменяю"), timeout=WAIT)
    assert len(await portal_bookings(portal_url, user="club")) == 3

    # ... or all three, with one confirmation.
    await user.send("отмени бронь в четверг")
    rooms = await user.wait_for_message(
        lambda m: has("Отменить все аудитории этой брони")(m) and m.message_id != rooms.message_id,
        timeout=WAIT,
    )
    await user.wait_for_answer(await user.tap("Отменить все три"))
    every = f"{first}, {second}, {third}, Корпус на Чайковского, чт 26.11 18:00–20:00"
    await user.wait_for_message(has(f"Отменить {every}?"), timeout=WAIT)
    assert len(await portal_bookings(portal_url, user="club")) == 3  # nothing before «Да»
    await user.wait_for_answer(await user.tap("Да"))
    done = await user.wait_for_message(has("Отменены брони"), timeout=WAIT)
    assert done.text == f"Отменены брони: {every}."
    assert await portal_bookings(portal_url, user="club") == []


async def test_the_language_sticks_across_commands_numbers_emoji_and_taps(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    # An English Telegram client; the user writes Russian: Russian it is, and it stays.
    user = tg.user(1, "Анна", language_code="en")
    await user.send("забронируй 205 в Чайковского в четверг с 18 до 20")
    await user.wait_for_message(has("Забронирована 205"), timeout=WAIT)
    for text, russian in [
        ("/bookings", "Ваши брони:"),
        ("/status", "Сейчас ничего не выполняется"),
        ("2", "Я не понял запрос"),
        ("👍", "Я не понял запрос"),
    ]:
        await user.send(text)
        await user.wait_for_message(has(russian), timeout=WAIT)
    await user.send("забронируй аудиторию в главном")
    question = await user.wait_for_message(has("На какую дату?"), timeout=WAIT)
    answer = await user.wait_for_answer(await user.tap(question.labels[0]))
    assert (answer.text or "").startswith("Принято: ")

    # /settings switches it, and then what they write does not.
    await user.send("/cancel")
    await user.send("/settings")
    settings = await user.wait_for_message(has("Язык"), timeout=WAIT)
    await user.wait_for_answer(await user.tap("English", message_id=settings.message_id))
    await user.send("мои брони")
    listing = await user.wait_for_message(has("Your bookings:"), timeout=WAIT)
    assert listing.text == "Your bookings:\n• Thu 26 Nov 18:00–20:00, Chaikovsky building: 205"


def calendar_of(
    tg: FakeTelegram, message: StoredMessage
) -> list[tuple[str, str, datetime, datetime]]:
    """The events of the .ics a message carries: summary, location, start, end."""
    assert message.document is not None and message.document["file_name"].endswith(".ics")
    parsed = icalendar.Calendar.from_ical(tg.state.files[message.document["file_id"]])
    return sorted(
        (str(e["summary"]), str(e["location"]), e.decoded("dtstart"), e.decoded("dtend"))
        for e in parsed.walk("VEVENT")
    )


async def test_a_booking_and_the_bookings_list_offer_a_calendar_file(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 2 аудитории рядом в Чайковского в четверг с 18 до 20")
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)
    assert done.labels == ["📅 В календарь"]
    await user.wait_for_answer(await user.tap("📅 В календарь", message_id=done.message_id))
    sent = await user.wait_for_message(lambda m: m.document is not None, timeout=WAIT)
    moscow = ZoneInfo("Europe/Moscow")
    start, end = (
        datetime(2026, 11, 26, 18, tzinfo=moscow),
        datetime(2026, 11, 26, 20, tzinfo=moscow),
    )
    rooms = [str(n) for n in rooms_of(await portal_bookings(portal_url, user="club"))]
    expected = [
        (f"Аудитория {room}", f"{room}, Корпус на Чайковского", start, end) for room in rooms
    ]
    events = calendar_of(tg, sent)
    assert events == expected
    assert all(event[2].utcoffset() == timedelta(hours=3) for event in events)

    await user.send("/bookings")
    listing = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    await user.wait_for_answer(await user.tap("📅 В календарь", message_id=listing.message_id))
    everything = await user.wait_for_message(lambda m: m.document is not None, timeout=WAIT)
    assert calendar_of(tg, everything) == expected


async def test_full_building_alternatives_offered_and_one_tapped(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    await set_quirks(portal_url, full_building="main")
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20")
    question = await user.wait_for_message(has("Не нашлось"), timeout=WAIT)
    other = next(label for label in question.labels if label.startswith("Корпус на Чайковского"))
    assert question.labels[-1] == "Отмена" and "Другое…" not in question.labels
    await user.wait_for_answer(await user.tap(other))
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2 and {b["building"] for b in booked} == {"chaikovsky"}
    numbers = rooms_of(booked)
    assert numbers[1] == numbers[0] + 1
    assert done.text is not None and "Корпус на Чайковского" in done.text
    assert f"{numbers[0]}, {numbers[1]}" in done.text


async def test_session_expiry_and_server_errors_mid_run_through_telegram(
    app: BotApp, tg: FakeTelegram, portal_url: str, clock: ManualClock
) -> None:
    # The portal drops sessions 2 s after login and answers a quarter of requests with
    # 5xx: the run logs in again and retries, and the user sees one booking, not errors.
    # Four requests are served after each failure: independent failures once failed all
    # three login attempts in a row on a slow machine, which no retry policy can promise.
    # (4 s outlived the whole run once it booked by the form's own POST, the fast path.)
    await set_quirks(
        portal_url, session_lifetime=2, error_rate=0.25, error_seed=3, error_gap=4, latency_ms=200
    )
    async with ticking(clock):  # the portal's clock is the manual one: let it run
        user = tg.user(1, "Анна", language_code="ru")
        await user.send("забронируй 3 аудитории рядом в главном в пятницу с 10 до 12")
        done = await user.wait_for_message(has("Забронированы"), timeout=2 * WAIT)
    served = await chaos_served(portal_url)
    assert served["errors_served"] > 0 and served["sessions_expired"] > 0

    booked = await portal_bookings(portal_url, user="club")
    numbers = rooms_of(booked)
    assert len(numbers) == 3 and numbers == list(range(numbers[0], numbers[0] + 3))
    assert done.text is not None and ", ".join(map(str, numbers)) in done.text
    assert not any("ошибк" in (m.text or "").lower() for m in user.messages)


async def test_typed_text_at_the_alternatives_question_asks_it_again_and_nothing_fails(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    # Issue 16: the alternatives are buttons only; typed text used to reach the step as an
    # option id, raise ValueError and fail the booking.
    await set_quirks(portal_url, full_building="main")
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20")
    question = await user.wait_for_message(has("Не нашлось"), timeout=WAIT)
    await user.send("давай в пятницу")
    again = await user.wait_for_message(timeout=WAIT)
    assert again.text == f"Выберите один из вариантов кнопкой. {question.text}"
    assert again.labels == question.labels
    other = next(label for label in again.labels if label.startswith("Корпус на Чайковского"))
    await user.send(other.lower())  # an option's label, typed: taken as the option
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2 and {b["building"] for b in booked} == {"chaikovsky"}
    assert done.text is not None and "Корпус на Чайковского" in done.text
    assert not any("Не получилось" in (m.text or "") for m in user.messages)


async def test_an_edited_request_still_collecting_details_is_booked_as_corrected(
    app: BotApp, tg: FakeTelegram, portal_url: str
) -> None:
    # Issue 16: edits used to get no reply at all, and the booking went ahead unchanged.
    user = tg.user(1, "Анна", language_code="ru")
    sent = await user.send(FLAGSHIP)
    await user.wait_for_message(has("В каком корпусе?"), timeout=WAIT)
    await user.edit(sent["message_id"], "забронируй 2 аудитории рядом в пятницу с 10 до 12")
    corrected = await user.wait_for_message(timeout=WAIT)
    asked = await user.wait_for_message(timeout=WAIT)
    assert corrected.text == "Учёл исправление: «Бронирование аудиторий» начинаю заново."
    assert asked.text == "В каком корпусе?"
    await user.wait_for_answer(await user.tap("Корпус на Чайковского", message_id=asked.message_id))
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2
    assert {(b["building"], b["date"], b["start"], b["end"]) for b in booked} == {
        ("chaikovsky", "2026-11-27", "10:00", "12:00")
    }
    assert done.text is not None and "пт 27.11, 10:00–12:00" in done.text
