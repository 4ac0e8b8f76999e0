"""Reminders through Telegram end to end: the real bot and scheduler on real storage,
Chromium and the reference portal, all on one manual clock (Monday 23.11.2026, 10:00 in
Moscow). A reminder turned on in /settings arrives once, an hour before the booking; a
cancelled booking's never does; restarting the bot neither loses nor repeats one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from core.clock import ManualClock
from core.site.catalogue import Catalogues
from core.views import RecordingSink
from scenarios.booking.reminders import Reminders
from scenarios.booking.schedules import BookingScheduler
from scenarios.booking.settings import SchedulerSettings
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.portal import portal_bookings
from tests.support.refportal import refportal_system

WAIT = 90.0  # generous: Chromium on a busy two-core machine
REMINDER = "🔔 Напоминание: сегодня 18:00–20:00, Корпус на Чайковского: "

# Thursday 26.11 in Moscow (UTC+3).
THURSDAY_09_30 = datetime(2026, 11, 26, 6, 30, tzinfo=UTC)
THURSDAY_16_59 = datetime(2026, 11, 26, 13, 59, tzinfo=UTC)
THURSDAY_17_00 = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)
THURSDAY_17_05 = datetime(2026, 11, 26, 14, 5, tzinfo=UTC)


@asynccontextmanager
async def bot_with_scheduler(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> AsyncIterator[BookingScheduler]:
    """The bot as ``clubman run`` runs it, with the scheduler sending its reminders (its
    timer looks for due ones every 0.1 s of real time, on the manual clock)."""
    async with product_bot(tg, storage, refportal_system(portal_url), clock=clock) as app:
        scheduler = BookingScheduler(
            storage=storage,
            manager=app.manager,
            clock=clock,
            settings=SchedulerSettings(remind_every_seconds=0.1, tick_seconds=3600),
            catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
            owner_id=storage.locks.holder,
            # The scheduler's own sender, on the bot's sink: the store is the bookings'.
            reminders=Reminders(
                storage.reminders, storage.users, RecordingSink(app.sink, storage), clock=clock
            ),
        )
        async with scheduler:
            yield scheduler


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


def reminders_of(user: SimUser) -> list[StoredMessage]:
    return [m for m in user.messages if (m.text or "").startswith("🔔")]


async def test_a_reminder_arrives_once_an_hour_before_and_not_for_a_cancelled_booking(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with bot_with_scheduler(tg, storage, clock, portal_url) as scheduler:
        await user.send("/settings")
        panel = await user.wait_for_message(has("Напоминания: выключены"), timeout=WAIT)
        answer = await user.wait_for_answer(await user.tap("🔔 Напоминать за 1 час"))
        assert answer.text == "Напомню за час до каждой брони."
        edited = await user.wait_for_message(has("Напоминания: за 1 час до брони"))
        assert edited.message_id == panel.message_id

        await user.send("забронируй 3 аудитории рядом в Чайковского в четверг с 18 до 20")
        await user.wait_for_message(has("Забронированы"), timeout=WAIT)
        rooms = sorted(
            int(b["room_number"]) for b in await portal_bookings(portal_url, user="club")
        )
        # A second request, then cancelled: its reminder (due 09:00) must never come.
        await user.send("забронируй 205 в Чайковского в четверг с 10 до 12")
        await user.wait_for_message(has("Забронирована 205"), timeout=WAIT)
        await user.send("отмени бронь 205 в четверг")
        await user.wait_for_message(has("Отменить 205"), timeout=WAIT)
        await user.wait_for_answer(await user.tap("Да"))
        await user.wait_for_message(has("Отменена бронь"), timeout=WAIT)
        assert (
            sorted(int(b["room_number"]) for b in await portal_bookings(portal_url, user="club"))
            == rooms
        )

        clock.set(THURSDAY_09_30)
        assert await scheduler.remind(clock.now()) == 0  # 205 was cancelled
    assert reminders_of(user) == []

    # A restart before it is due: the reminder is kept in storage, not in the process.
    async with bot_with_scheduler(tg, storage, clock, portal_url) as scheduler:
        clock.set(THURSDAY_16_59)
        assert await scheduler.remind(clock.now()) == 0
        assert reminders_of(user) == []
        clock.set(THURSDAY_17_00)  # the timer finds it due
        reminder = await user.wait_for_message(has("🔔"), timeout=WAIT)
        assert reminder.text == REMINDER + ", ".join(str(n) for n in rooms) + "."
        clock.set(THURSDAY_17_05)
        assert await scheduler.remind(clock.now()) == 0  # sent: never again

    # And after another restart, still once.
    async with bot_with_scheduler(tg, storage, clock, portal_url) as scheduler:
        assert await scheduler.remind(clock.now()) == 0
    assert [m.message_id for m in reminders_of(user)] == [reminder.message_id]
