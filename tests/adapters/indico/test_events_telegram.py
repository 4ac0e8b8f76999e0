"""The events job through the real bot (aiogram polling the fake Bot API server) on the
app's own core with ``PORTAL__KIND=indico``, on a real Indico 3.2.9, every outcome
checked in Indico's database: create with a room, list, open registration with a limit,
count, cancel (asked first).

Indico checks bookings against the real clock: days are counted from today.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.factory import BotApp
from core.texts import day_label
from tests.fakes.telegram import FakeTelegram, StoredMessage
from tests.support.indico_server import DbEvent, IndicoServer

WAIT = 120.0  # Chromium and Indico on a busy two-core machine
CLUB_CATEGORY = "Шахматный клуб"  # scripts/indico/seed.json: the club may create events here


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


def _utc(server: IndicoServer, day: date, at: time) -> datetime:
    local = datetime.combine(day, at).replace(tzinfo=ZoneInfo(server.stack.timezone))
    return local.astimezone(UTC).replace(tzinfo=None)


async def _live_events(server: IndicoServer, title: str) -> list[DbEvent]:
    rows = await asyncio.to_thread(server.events)
    return [e for e in rows if e.title == title and not e.is_deleted]


async def test_create_list_open_registration_count_and_cancel_an_event(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=9)
    title = f"Открытое занятие по робототехнике {day:%d.%m}"
    room = await asyncio.to_thread(indico_server.room, "7/7-704")
    user = tg.user(41, "Вера", language_code="ru")

    await user.send(f"создай мероприятие «{title}» {day:%d.%m} с 18 до 20 в 7-704")
    created = await user.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    [event] = await _live_events(indico_server, title)
    assert event.category_id == await asyncio.to_thread(indico_server.category_id, CLUB_CATEGORY)
    assert (event.start, event.end) == (
        _utc(indico_server, day, time(18)),
        _utc(indico_server, day, time(20)),
    )
    [booking_id] = event.booking_ids
    booking = await asyncio.to_thread(indico_server.booking, booking_id)
    assert booking is not None and (booking.room_id, booking.state) == (room.id, "accepted")
    assert (booking.start, booking.end) == (datetime.combine(day, time(18)),
                                            datetime.combine(day, time(20)))  # fmt: skip
    url = f"{indico_server.base_url}/event/{event.id}/"
    assert created.text == (
        f"Создано мероприятие «{title}»: {day_label(day, 'ru')} 18:00–20:00, "
        f"аудитория 7-704.\n{url}"
    )

    await user.send("мои мероприятия")
    listing = await user.wait_for_message(has("Мероприятия клуба:"), timeout=WAIT)
    assert f"«{title}», 7/7-704\n  {url}" in (listing.text or "")

    await user.send(f"открой регистрацию на «{title}» до 30 человек")
    opened = await user.wait_for_message(has("открыта"), timeout=WAIT)
    assert opened.text == f"Регистрация на «{title}» открыта (до 30 человек).\n{url}"
    [form] = await asyncio.to_thread(indico_server.regforms, event.id)
    assert form.limit == 30 and form.start is not None and form.end is None

    await asyncio.to_thread(indico_server.register, form.id, "other")
    await user.send("сколько записалось на робототехнику")
    counted = await user.wait_for_message(has("записалось"), timeout=WAIT)
    assert counted.text == f"На «{title}» записалось: 1."

    await user.send(f"отмени мероприятие «{title}»")
    confirm = await user.wait_for_message(has("Отменить мероприятие"), timeout=WAIT)
    assert confirm.text == (
        f"Отменить мероприятие «{title}» ({day_label(day, 'ru')} 18:00–20:00)? "
        "Оно будет удалено, аудитория освободится."
    )
    assert confirm.labels[:2] == ["Да", "Нет"]
    # nothing is deleted before «Да»
    assert [e.id for e in await _live_events(indico_server, title)] == [event.id]
    await user.wait_for_answer(await user.tap("Да"))
    await user.wait_for_message(has(f"Мероприятие «{title}» отменено."), timeout=WAIT)
    assert await _live_events(indico_server, title) == []
    freed = await asyncio.to_thread(indico_server.booking, booking_id)
    assert freed is not None and freed.state == "cancelled"


async def test_missing_title_and_room_are_asked_and_no_room_is_an_answer(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=1)
    user = tg.user(42, "Глеб", language_code="ru")
    await user.send("создай мероприятие завтра с 10 до 11")
    asked = await user.wait_for_message(has("Как назвать мероприятие?"), timeout=WAIT)
    assert asked.text == "Как назвать мероприятие?"
    title = f"Разбор партий {day:%d.%m}"
    await user.send(title)
    room = await user.wait_for_message(has("В какой аудитории?"), timeout=WAIT)
    assert room.labels[0] == "Без аудитории"
    await user.wait_for_answer(await user.tap("Без аудитории"))
    created = await user.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    [event] = await _live_events(indico_server, title)
    assert event.booking_ids == ()
    assert created.text == (
        f"Создано мероприятие «{title}»: {day_label(day, 'ru')} 10:00–11:00.\n"
        f"{indico_server.base_url}/event/{event.id}/"
    )


async def test_a_taken_room_offers_the_free_rooms_near_it_and_the_one_tapped_is_booked(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=11)
    taken = await asyncio.to_thread(indico_server.room, "7/7-705")
    await asyncio.to_thread(
        indico_server.add_booking,
        taken.id,
        datetime.combine(day, time(12)),
        datetime.combine(day, time(14)),
        "Олимпиада",
    )
    title = f"Блиц-турнир {day:%d.%m}"
    user = tg.user(43, "Ия", language_code="ru")
    await user.send(f"создай мероприятие «{title}» {day:%d.%m} с 12 до 14 в 7-705")
    asked = await user.wait_for_message(has("занята"), timeout=WAIT)
    assert asked.text == "7-705 в это время занята. Выберите другую аудиторию:"
    assert asked.labels[:2] == ["7-704", "7-706"]  # the nearest free rooms first
    assert "Без аудитории" in asked.labels
    assert await _live_events(indico_server, title) == []  # nothing left behind

    await user.wait_for_answer(await user.tap("7-706"))
    created = await user.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    assert "аудитория 7-706" in (created.text or "")
    [event] = await _live_events(indico_server, title)
    [booking_id] = event.booking_ids
    booking = await asyncio.to_thread(indico_server.booking, booking_id)
    other = await asyncio.to_thread(indico_server.room, "7/7-706")
    assert booking is not None and (booking.room_id, booking.state) == (other.id, "accepted")
