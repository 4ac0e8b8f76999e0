"""Negated commands through Telegram (issue 25): «больше не занимай нам 405 по четвергам»
undoes the 405 schedule after one «Да» and books nothing, «не бронируй ничего» is answered
and does nothing, and a building the catalogue lacks is asked about by its name. The real
bot polls the fake Bot API server, on real storage; the last test books through Chromium
on the reference portal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from core.clock import ManualClock
from scenarios.booking.records import Schedule, ScheduleStatus
from storage import Storage
from tests.bot.support import product_bot, running_bot, schedules_core
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage
from tests.support.portal import portal_bookings
from tests.support.refportal import refportal_system
from tests.support.scenarios import TrackedScenario

NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)  # Monday 10:00 in Moscow
WAIT = 90.0  # generous: Chromium on a busy two-core machine

MessageCheck = Callable[[StoredMessage], bool]


def has(text: str) -> MessageCheck:
    return lambda m: text in (m.text or "")


async def create_schedule(user: SimUser, command: str) -> None:
    await user.send(command)
    await user.wait_for_message(has("Создать регулярную бронь"))
    await user.wait_for_answer(await user.tap("Создать"))
    await user.wait_for_message(has("Регулярная бронь создана"))


async def run_ids(storage: Storage, chat_id: int) -> set[str]:
    return {run.short_id for run in await storage.runs.recent(chat_id=chat_id)}


def with_room(schedules: Sequence[Schedule], room: str) -> Schedule:
    return next(s for s in schedules if room in (s.slots.get("room") or ()))


async def test_a_negated_recurring_command_removes_the_schedule_after_one_confirmation_and_books_nothing(  # noqa: E501
    tg: FakeTelegram, storage: Storage
) -> None:
    booker = TrackedScenario()
    user = tg.user(7, "Анна", language_code="ru")
    async with running_bot(tg, storage, core=schedules_core(booker)):
        await create_schedule(user, "каждый четверг бронируй 405 в главном с 18 до 20")
        # Another Thursday schedule: the room named must pick the 405 one, unasked.
        await create_schedule(user, "каждый четверг бронируй 205 в Чайковского с 18 до 20")
        schedules = list(await storage.schedules.for_owner(7))
        assert len(schedules) == 2
        ours, other = with_room(schedules, "405"), with_room(schedules, "205")
        before = await run_ids(storage, 7)

        await user.send("больше не занимай нам 405 по четвергам")
        confirm = await user.wait_for_message(lambda m: "Да" in m.labels)
        assert confirm.text == "Удалить регулярную бронь чт 18:00–20:00, 405, Главный корпус?"
        assert confirm.labels[:2] == ["Да", "Нет"]
        kept = await storage.schedules.get(str(ours.id))
        assert kept is not None and kept.status is ScheduleStatus.ACTIVE  # nothing before «Да»

        await user.wait_for_answer(await user.tap("Да", message_id=confirm.message_id))
        done = await user.wait_for_message(has("Регулярная бронь удалена"))

    assert done.text == (
        "Регулярная бронь удалена: чт 18:00–20:00, 405, Главный корпус. "
        "Уже сделанные брони остались."
    )
    asked = [m for m in user.messages if "Удалить регулярную бронь" in (m.text or "")]
    assert [m.message_id for m in asked] == [confirm.message_id], "one confirmation question"
    assert confirm.reply_markup is None  # answered: its buttons are gone
    assert not any("Какую регулярную бронь" in (m.text or "") for m in user.messages)
    deleted, left = (
        await storage.schedules.get(str(ours.id)),
        await storage.schedules.get(str(other.id)),
    )
    assert deleted is not None and deleted.status is ScheduleStatus.DELETED
    assert left is not None and left.status is ScheduleStatus.ACTIVE
    assert [s.id for s in await storage.schedules.live()] == [other.id]

    new_runs = [r for r in await storage.runs.recent(chat_id=7) if r.short_id not in before]
    assert [r.scenario for r in new_runs] == ["cancel_schedule"]
    everything = {r.scenario for r in await storage.runs.recent(chat_id=7)}
    assert "book_rooms" not in everything
    assert booker.executed == [], "the booking scenario never ran a step"


async def test_a_bare_refusal_books_nothing_and_says_so(tg: FakeTelegram, storage: Storage) -> None:
    booker = TrackedScenario()
    user = tg.user(8, "Борис", language_code="ru")
    async with running_bot(tg, storage, core=schedules_core(booker)):
        await user.send("не бронируй ничего")
        reply = await user.wait_for_message()
        await user.send("/status")  # a later reply: anything the refusal started is done
        await user.wait_for_message(has("Сейчас ничего не выполняется"))

    assert reply.text == "Хорошо, ничего не бронирую и ничего не меняю."
    assert reply.labels == []
    assert list(await storage.runs.recent(chat_id=8)) == []
    assert list(await storage.schedules.for_owner(8)) == []
    assert booker.executed == []


async def test_an_unknown_building_is_asked_about_by_name(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> None:
    user = tg.user(9, "Вера", language_code="ru")
    async with product_bot(tg, storage, refportal_system(portal_url), clock=clock):
        await user.send("забронируй аудиторию в корпусе на Невском завтра с 10 до 12")
        question = await user.wait_for_message(has("В каком корпусе?"), timeout=WAIT)
        assert question.text == "Корпуса «на Невском» я не знаю. В каком корпусе?"
        assert question.labels[:4] == [
            "Главный корпус",
            "Корпус на Чайковского",
            "Лабораторный корпус",
            "Любой",
        ]
        assert await portal_bookings(portal_url, user="club") == []  # nothing booked yet

        await user.wait_for_answer(await user.tap("Главный корпус"), timeout=WAIT)
        done = await user.wait_for_message(has("Забронирована"), timeout=WAIT)

    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 1
    assert {(b["building"], b["date"], b["start"], b["end"]) for b in booked} == {
        ("main", "2026-11-24", "10:00", "12:00")
    }
    room = booked[0]["room_number"]
    assert done.text == f"Забронирована {room} (Главный корпус, вт 24.11, 10:00–12:00)"
