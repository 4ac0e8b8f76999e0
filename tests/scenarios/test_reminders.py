"""Reminders of bookings on real storage: planned once per request when its run finishes,
rooms taken out by a cancel, sent once an hour before (claimed by one of two senders),
only to users who turned them on, never late."""

from __future__ import annotations

import datetime as dt

import pytest

from core.clock import ManualClock
from core.output import Reply
from core.store import ScenarioRun
from scenarios.booking.events import BookingsCancelled
from scenarios.booking.records import ReminderRecord, ReminderRoom, ReminderState
from scenarios.booking.reminders import BookedRequest, Reminders, reminder_text
from storage import Storage
from tests.support.sinks import CollectingSink

# The core's clock stands at Monday 23.11.2026, 10:00 in Moscow (tests.core.conftest);
# the booking is Thursday 26.11, 18:00–20:00 there.
STARTS = dt.datetime(2026, 11, 26, 15, 0, tzinfo=dt.UTC)
HOUR_BEFORE = STARTS - dt.timedelta(hours=1)
USER = 7


def rooms(*numbers: int) -> list[ReminderRoom]:
    return [ReminderRoom(number=f"B{n}", room=str(n)) for n in numbers]


def booked(*numbers: int, start: int = 18) -> BookedRequest:
    return BookedRequest(
        place="Корпус на Чайковского",
        day=dt.date(2026, 11, 26),
        start=dt.time(start, 0),
        end=dt.time(20, 0),
        rooms=rooms(*numbers),
    )


def cancelled(*numbers: int) -> BookingsCancelled:
    """What a cancelling step publishes once the bookings are gone."""
    return BookingsCancelled(run_id="cancel", numbers=[f"B{n}" for n in numbers])


def a_run(run_id: str, *, lang: str = "ru") -> ScenarioRun:
    return ScenarioRun(
        short_id=run_id, chat_id=USER, user_id=USER, scenario="book_rooms", lang=lang
    )


@pytest.fixture
async def reminders(storage: Storage, sink: CollectingSink, clock: ManualClock) -> Reminders:
    user = await storage.users.get_or_create(USER)
    user.reminders = True
    await storage.users.save(user)
    return Reminders(storage.reminders, storage.users, sink, clock=clock)


async def test_one_reminder_per_request_an_hour_before_and_only_once(
    reminders: Reminders, storage: Storage, sink: CollectingSink
) -> None:
    await reminders.plan(a_run("run1"), booked(101, 102, 103))
    await reminders.plan(a_run("run1"), booked(101, 102, 103))  # the run resumed and finished again
    assert [r.run_id for r in await storage.reminders.pending()] == ["run1"]

    assert await reminders.send_due(HOUR_BEFORE - dt.timedelta(minutes=1)) == 0
    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert await reminders.send_due(HOUR_BEFORE + dt.timedelta(minutes=1)) == 0
    (reply,) = sink.of_kind(Reply)
    assert reply.chat_id == USER
    assert (
        reply.text == "🔔 Напоминание: сегодня 18:00–20:00, Корпус на Чайковского: 101, 102, 103."
    )
    record = await storage.reminders.get("run1")
    assert record is not None and record.state is ReminderState.SENT


async def test_a_second_sender_does_not_send_it_again(
    reminders: Reminders, storage: Storage, sink: CollectingSink, clock: ManualClock
) -> None:
    await reminders.plan(a_run("run1"), booked(101))
    other_sink = CollectingSink()  # another process (or this one after a restart)
    other = Reminders(storage.reminders, storage.users, other_sink, clock=clock)
    assert await reminders.send_due(HOUR_BEFORE) == 1
    assert await other.send_due(HOUR_BEFORE) == 0
    assert len(sink.of_kind(Reply)) == 1 and other_sink.outputs == []


async def test_cancelled_rooms_leave_the_reminder_and_a_request_cancelled_whole_is_not_sent(
    reminders: Reminders, storage: Storage, sink: CollectingSink
) -> None:
    await reminders.plan(a_run("run1"), booked(101, 102, 103))
    await reminders.plan(a_run("run2"), booked(201))
    await reminders.on_event(cancelled(102))
    await reminders.on_event(cancelled(201))

    gone = await storage.reminders.get("run2")
    assert gone is not None and gone.state is ReminderState.CANCELLED and gone.rooms == []
    assert await reminders.send_due(HOUR_BEFORE) == 1
    (reply,) = sink.of_kind(Reply)
    assert reply.text.endswith("Корпус на Чайковского: 101, 103.")


async def test_a_cancel_meanwhile_is_not_lost(reminders: Reminders, storage: Storage) -> None:
    """Two cancels of rooms of one request at once: each write is checked against the rooms
    it read, so neither undoes the other."""
    await reminders.plan(a_run("run1"), booked(101, 102, 103))
    (stale,) = await storage.reminders.pending()
    await reminders.on_event(cancelled(101))
    assert not await storage.reminders.keep_rooms("run1", was=stale.rooms, rooms=rooms(101, 103))
    await reminders.on_event(cancelled(103))
    record = await storage.reminders.get("run1")
    assert record is not None and [r.room for r in record.rooms] == ["102"]


async def test_users_without_reminders_get_none_and_turning_them_on_covers_earlier_bookings(
    reminders: Reminders, storage: Storage, sink: CollectingSink
) -> None:
    user = await storage.users.get_or_create(USER)
    user.reminders = False
    await storage.users.save(user)
    await reminders.plan(a_run("run1"), booked(101))
    await reminders.plan(a_run("run2"), booked(102, 103, start=19))

    assert await reminders.send_due(HOUR_BEFORE) == 0  # off: skipped, for good
    skipped = await storage.reminders.get("run1")
    assert skipped is not None and skipped.state is ReminderState.SKIPPED
    user.reminders = True  # turned on after booking: the later reminder comes
    await storage.users.save(user)
    assert await reminders.send_due(HOUR_BEFORE + dt.timedelta(hours=1)) == 1
    assert [o.text for o in sink.of_kind(Reply)] == [
        "🔔 Напоминание: сегодня 19:00–20:00, Корпус на Чайковского: 102, 103."
    ]


async def test_not_sent_late_nor_planned_within_the_hour(
    reminders: Reminders, storage: Storage, sink: CollectingSink, clock: ManualClock
) -> None:
    await reminders.plan(a_run("run1"), booked(101))
    assert await reminders.send_due(STARTS + dt.timedelta(minutes=5)) == 0  # the bot was down
    missed = await storage.reminders.get("run1")
    assert missed is not None and missed.state is ReminderState.SKIPPED

    clock.set(HOUR_BEFORE + dt.timedelta(minutes=30))  # booked half an hour before
    await reminders.plan(a_run("run2"), booked(102))
    assert await storage.reminders.get("run2") is None
    assert sink.outputs == []


def test_the_text_says_today_in_the_requests_language() -> None:
    record = ReminderRecord(
        run_id="r", chat_id=1, user_id=1, lang="en", timezone="Europe/Moscow",
        place="Chaikovsky building", rooms=rooms(101, 102),
        starts_at=STARTS, ends_at=STARTS + dt.timedelta(hours=2), due_at=HOUR_BEFORE,
    )  # fmt: skip
    text = reminder_text(record, now=HOUR_BEFORE)
    assert text == "🔔 Reminder: today 18:00–20:00, Chaikovsky building: 101, 102."
