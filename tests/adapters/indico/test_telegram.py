"""The whole product on a real Indico: the real bot (aiogram polling the fake Bot API
server) on the app's own core (``app.compose.open_core`` with ``PORTAL__KIND=indico``:
the catalogue read from Indico with the club's account, real scenarios, real storage,
real Chromium), checked against Indico's database, not through our adapter.

Indico checks every booking against the real clock, so the product runs on the system
clock and every day here is counted from today (``IndicoServer.today``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date, datetime, time, timedelta

import pytest

from bot.factory import BotApp
from core.texts import day_label
from tests.fakes.telegram import FakeTelegram, StoredMessage
from tests.support.indico_server import DbBooking, IndicoServer

WAIT = 120.0  # generous: Chromium and Indico on a busy two-core machine
STEPS = ["Вход на портал", "Поиск свободных аудиторий", "Бронирование", "Проверка в «Мои брони»"]
# «в <день недели>» as people write it (accusative, «во вторник»).
ON_WEEKDAY = ("в понедельник", "во вторник", "в среду", "в четверг", "в пятницу",
              "в субботу", "в воскресенье")  # fmt: skip

MessageCheck = Callable[[StoredMessage], bool]


def has(text: str) -> MessageCheck:
    return lambda m: text in (m.text or m.caption or "")


def starts(text: str) -> MessageCheck:
    return lambda m: (m.text or "").startswith(text)


def on_weekday(day: date) -> str:
    return ON_WEEKDAY[day.weekday()]


def done_steps(title: str) -> str:
    return "\n".join([title, *(f"✓ {step}" for step in STEPS)])


async def club_bookings(server: IndicoServer, *, state: str = "accepted") -> list[DbBooking]:
    """The club's bookings in Indico's database (psql), in ``state``."""
    club = server.club.id
    return [
        b
        for b in await asyncio.to_thread(server.bookings)
        if b.booked_for_id == club and b.state == state
    ]


async def numbers_of(server: IndicoServer, bookings: list[DbBooking]) -> list[str]:
    rooms = {r.id: r.number for r in await asyncio.to_thread(server.rooms)}
    return sorted(rooms[b.room_id] for b in bookings)


async def places_of(server: IndicoServer, bookings: list[DbBooking]) -> set[tuple[str, str]]:
    """(building, floor) of every booked room."""
    rooms = {r.id: (r.building, r.floor) for r in await asyncio.to_thread(server.rooms)}
    return {rooms[b.room_id] for b in bookings}


def at(day: date, hour: int) -> datetime:
    return datetime.combine(day, time(hour))


@pytest.mark.parametrize("kind", ["indico", "profile"])
async def test_two_adjacent_rooms_in_building_7_booked_in_indico(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=4)  # no seeded booking that day
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(f"забронируй 2 аудитории рядом в 7-м корпусе {on_weekday(day)} с 18 до 20")
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await club_bookings(indico_server)
    assert len(booked) == 2, booked
    assert {(b.start, b.end) for b in booked} == {(at(day, 18), at(day, 20))}
    assert await places_of(indico_server, booked) == {("7", "7")}
    numbers = await numbers_of(indico_server, booked)
    assert int(numbers[1]) == int(numbers[0]) + 1
    assert {b.reason for b in booked} == {b.reason for b in booked[:1]}  # one run's
    assert booked[0].reason.startswith("Встреча студенческого клуба · #")
    assert done.text == (
        f"Забронированы {numbers[0]}, {numbers[1]} (Корпус 7, {day_label(day, 'ru')}, 18:00–20:00)"
    )
    progress = next(m for m in user.messages if starts("Бронирование аудиторий\n")(m))
    assert progress.text == done_steps("Бронирование аудиторий")
    assert progress.message_id < done.message_id
    assert await club_bookings(indico_server, state="pending") == []


async def test_list_then_cancel_with_confirmation(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=2)
    when = f"{day_label(day, 'ru')} 18:00–20:00"
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 705 в 7 корпусе послезавтра с 18 до 20")
    booked_msg = await user.wait_for_message(has("Забронирована"), timeout=WAIT)
    assert booked_msg.text == f"Забронирована 705 (Корпус 7, {day_label(day, 'ru')}, 18:00–20:00)"
    booked = await club_bookings(indico_server)
    assert await numbers_of(indico_server, booked) == ["705"]
    number = booked[0].id
    assert (booked[0].start, booked[0].end) == (at(day, 18), at(day, 20))

    await user.send("/bookings")
    listing = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    assert listing.text == f"Ваши брони:\n• {when[:1].upper()}{when[1:]}, Корпус 7: 705"
    await user.send("мои брони")
    again = await user.wait_for_message(
        lambda m: has("Ваши брони:")(m) and m.message_id != listing.message_id, timeout=WAIT
    )
    assert again.text == listing.text

    await user.send("отмени бронь 705 послезавтра")
    confirm = await user.wait_for_message(has("Отменить 705"), timeout=WAIT)
    assert confirm.text == f"Отменить 705, Корпус 7, {when}?"
    assert confirm.labels[:2] == ["Да", "Нет"]
    still = await asyncio.to_thread(indico_server.booking, number)
    assert still is not None and still.state == "accepted"  # nothing cancelled before «Да»
    await user.wait_for_answer(await user.tap("Да"))
    done = await user.wait_for_message(has("Отменена бронь"), timeout=WAIT)
    assert done.text == f"Отменена бронь: 705, Корпус 7, {when}."
    gone = await asyncio.to_thread(indico_server.booking, number)
    assert gone is not None and gone.state == "cancelled"
    assert await club_bookings(indico_server) == []
    assert confirm.reply_markup is None


async def test_full_building_real_alternatives_offered_and_one_tapped(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=6)
    for room in await asyncio.to_thread(indico_server.rooms):
        if room.building == "7":  # someone else holds all of building 7 at 18–20
            await asyncio.to_thread(
                indico_server.add_booking, room.id, at(day, 18), at(day, 20), "Олимпиада"
            )
    label = day_label(day, "ru")
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(f"забронируй 2 аудитории рядом в седьмом корпусе {on_weekday(day)} с 18 до 20")
    question = await user.wait_for_message(has("Не нашлось"), timeout=WAIT)

    # What Indico really has free: the library at that time, building 7 from 20:00 (the
    # nearest free slot on the half-hour grid), building 7 the next day.
    next_day = day_label(day + timedelta(days=1), "ru")
    assert question.text == f"Не нашлось: 2 аудит., Корпус 7, {label} 18:00–20:00. Можно так:"
    assert question.labels == [
        f"Библиотека, {label} 18:00–20:00",
        f"Корпус 7, {label} 20:00–22:00",
        f"Корпус 7, {next_day} 18:00–20:00",
        "Отмена",
    ]
    assert await club_bookings(indico_server) == []  # nothing booked while asking
    await user.wait_for_answer(await user.tap(f"Библиотека, {label} 18:00–20:00"))
    done = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await club_bookings(indico_server)
    assert len(booked) == 2, booked
    assert await places_of(indico_server, booked) == {("Библиотека", "1")}
    assert {(b.start, b.end) for b in booked} == {(at(day, 18), at(day, 20))}
    numbers = await numbers_of(indico_server, booked)
    assert int(numbers[1]) == int(numbers[0]) + 1
    assert done.text == (
        f"Забронированы {numbers[0]}, {numbers[1]} (Библиотека, {label}, 18:00–20:00)"
    )
