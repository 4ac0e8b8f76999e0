"""The scheduler on real storage with a manual clock: firing, history, claims, retries,
restarts, downtime and two processes. Bookings are made by the test booking scenario."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from core.clock import ManualClock
from core.errors import PortalError
from core.events import EventBus
from core.output import Done, Failed, Question, Reply
from core.scenario import StepContext
from scenarios.booking.records import BookingStore, Schedule, ScheduleFiring
from scenarios.booking.schedules import ScheduleBook
from scenarios.booking.settings import SchedulerSettings
from storage import Storage
from tests.scenarios.schedules.conftest import CHAT, System, SystemFactory
from tests.support.scenarios import StepDone, TrackedScenario
from tests.support.sinks import CollectingSink

CREATE = "каждый четверг бронируй 405 в главном корпусе с 18 до 20"
MSK = dt.timezone(dt.timedelta(hours=3))


async def create(system: System, sink: CollectingSink, text: str = CREATE) -> Schedule:
    mark = len(sink.outputs)
    await system.say(text)
    confirm = await sink.wait_for(Question, lambda q: q.key == "confirm", after=mark)
    await system.tap(confirm, "create")
    await sink.wait_for(Done, lambda d: d.run_id == confirm.run_id, after=mark)
    return await only_schedule(system)


async def only_schedule(system: System) -> Schedule:
    storage: BookingStore = system.scheduler._storage
    found = await storage.schedules.for_owner(CHAT)
    assert len(found) == 1
    return found[0]


async def history(storage: Storage, schedule: Schedule) -> list[tuple[str, str]]:
    fresh = await storage.schedules.get(str(schedule.id))
    assert fresh is not None
    return [(f.target_date.isoformat(), f.status) for f in fresh.history]


def booked(sink: CollectingSink) -> list[str]:
    return sorted(d.text for d in sink.of_kind(Done) if d.text.startswith("Готово"))


async def test_fire_due_books_every_open_date_once_and_records_it(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with make_system(started=False) as system:
        schedule = await create(system, sink)
        started = await system.scheduler.fire_due(clock.now())
        assert len(started) == 2
        await system.manager.runner.wait_idle()
        assert booked(sink) == [
            "Готово: 2026-11-26 18:00–20:00",
            "Готово: 2026-12-03 18:00–20:00",
        ]
        notes = [r.text for r in sink.of_kind(Reply) if r.text.startswith("Регулярная")]
        assert notes == [
            "Регулярная бронь: чт 26.11, 18:00–20:00, 405, Главный корпус",
            "Регулярная бронь: чт 03.12, 18:00–20:00, 405, Главный корпус",
        ]
        assert await history(storage, schedule) == [("2026-11-26", "done"), ("2026-12-03", "done")]
        runs = [await storage.runs.get(r) for r in started]
        assert all(r is not None and r.schedule_id == str(schedule.id) for r in runs)
        # Never twice: not on the next tick, nor when the claims have expired.
        assert await system.scheduler.tick() == []
        await storage.redis.flushdb()
        assert await system.scheduler.fire_due(clock.now()) == []
        # Thursday 26.11 00:00 MSK: 10.12 enters the window.
        clock.set(dt.datetime(2026, 11, 26, 0, 0, tzinfo=MSK))
        assert len(await system.scheduler.tick()) == 1
        await system.manager.runner.wait_idle()
    assert (await history(storage, schedule))[-1] == ("2026-12-10", "done")


async def test_a_new_schedule_fires_on_the_apscheduler_timer(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system() as system:
        schedule = await create(system, sink)
        assert system.scheduler.job_ids() == [str(schedule.id)]
        assert system.scheduler.next_fire_time(str(schedule.id)) is not None
        job = system.scheduler._timer.get_job(str(schedule.id))
        assert job.coalesce is True  # missed runs of a job: once
        assert job.misfire_grace_time == SchedulerSettings().misfire_grace_seconds
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-03 18:00–20:00")
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-11-26 18:00–20:00")
    assert len(booked(sink)) == 2
    assert await history(storage, schedule) == [("2026-11-26", "done"), ("2026-12-03", "done")]


async def test_restart_between_creation_and_firing_books_on_start_up(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system(started=False) as system:
        schedule = await create(system, sink)
    assert booked(sink) == []
    async with make_system() as system:  # the start-up tick fires what is due
        assert system.scheduler.job_ids() == [str(schedule.id)]
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-03 18:00–20:00")
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-11-26 18:00–20:00")
    async with make_system() as system:  # and a second restart books nothing again
        assert await system.scheduler.tick() == []
    assert len(booked(sink)) == 2
    assert len(await history(storage, schedule)) == 2


async def test_downtime_over_a_fire_time_books_once_on_start_up(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with make_system(started=False) as system:
        schedule = await create(system, sink)
        assert len(await system.scheduler.fire_due(clock.now())) == 2
    # Down from Monday to Thursday noon: 10.12 opened on Thursday 00:00 while down.
    clock.set(dt.datetime(2026, 11, 26, 12, 0, tzinfo=MSK))
    async with make_system() as system:
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-10 18:00–20:00")
        assert await system.scheduler.tick() == []
    async with make_system() as system:
        assert await system.scheduler.tick() == []
    assert [d for d, _ in await history(storage, schedule)] == [
        "2026-11-26",
        "2026-12-03",
        "2026-12-10",
    ]
    assert booked(sink).count("Готово: 2026-12-10 18:00–20:00") == 1


async def test_two_schedulers_sharing_redis_fire_each_date_exactly_once(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with (
        make_system(started=False, owner="a") as one,
        make_system(started=False, owner="b") as two,
    ):
        schedule = await create(one, sink)
        total = 0
        for _ in range(3):
            fired = await asyncio.gather(
                one.scheduler.fire_due(clock.now()),
                two.scheduler.fire_due(clock.now()),
                one.scheduler.tick(),
                two.scheduler.tick(),
            )
            total += sum(len(runs) for runs in fired)
        assert total == 2
        await one.manager.runner.wait_idle()
        await two.manager.runner.wait_idle()
    assert sorted(await history(storage, schedule)) == [
        ("2026-11-26", "done"),
        ("2026-12-03", "done"),
    ]
    assert len(booked(sink)) == 2


async def test_two_running_timers_book_once(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system(owner="a") as one, make_system(owner="b") as two:
        schedule = await create(one, sink)
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-03 18:00–20:00")
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-11-26 18:00–20:00")
        assert await two.scheduler.tick() == [] and await one.scheduler.tick() == []
        assert two.scheduler.job_ids() == [str(schedule.id)]  # learnt from the documents
    assert len(booked(sink)) == 2


class Flaky(TrackedScenario):
    """A booking whose portal is down for the first ``failures`` attempts."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def _prepare(self, ctx: StepContext[Any]) -> StepDone:
        if self.failures > 0:
            self.failures -= 1
            raise PortalError("the portal answers 503")
        return await super()._prepare(ctx)


async def test_a_failed_firing_is_retried_later_within_max_attempts(
    make_system: SystemFactory,
    sink: CollectingSink,
    storage: Storage,
    clock: ManualClock,
    scheduler_settings: SchedulerSettings,
) -> None:
    scheduler_settings.max_attempts = 3
    flaky = Flaky(failures=5)  # both dates fail twice, then 26.11 fails a third time
    async with make_system(started=False, booking=flaky) as system:
        schedule = await create(system, sink)
        assert len(await system.scheduler.fire_due(clock.now())) == 2
        await system.manager.runner.wait_idle()
        assert len(sink.of_kind(Failed)) == 2
        assert await history(storage, schedule) == [
            ("2026-11-26", "failed"),
            ("2026-12-03", "failed"),
        ]
        assert await system.scheduler.tick() == []  # not before retry_seconds
        for _ in range(2):
            clock.advance(dt.timedelta(seconds=scheduler_settings.retry_seconds + 1))
            assert len(await system.scheduler.tick()) == 2
            await system.manager.runner.wait_idle()
        clock.advance(dt.timedelta(seconds=scheduler_settings.retry_seconds + 1))
        assert await system.scheduler.tick() == []  # three attempts each: no more
    statuses = await history(storage, schedule)
    assert statuses.count(("2026-11-26", "failed")) == 3
    assert statuses.count(("2026-12-03", "failed")) == 2
    assert statuses.count(("2026-12-03", "done")) == 1
    assert booked(sink) == ["Готово: 2026-12-03 18:00–20:00"]


async def test_a_firing_waiting_for_the_user_is_running_and_not_fired_again(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with make_system(started=False, booking=TrackedScenario(confirm=True)) as system:
        schedule = await create(system, sink, "каждый четверг бронируй 405 в главном с 18 до 20")
        mark = len(sink.outputs)
        started = await system.scheduler.fire_due(clock.now())
        assert len(started) == 2
        question = await sink.wait_for(Question, lambda q: q.key == "go", after=mark)
        await system.manager.runner.wait_idle()
        assert {s for _, s in await history(storage, schedule)} == {"running"}
        assert await system.scheduler.tick() == []
        await system.tap(question, "yes")
        await sink.wait_for(Done, lambda d: d.run_id == question.run_id, after=mark)
        await system.manager.runner.wait_idle()
    statuses = dict(await history(storage, schedule))
    assert "done" in statuses.values() and "running" in statuses.values()


async def test_a_paused_schedule_does_not_fire(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with make_system(started=False) as system:
        schedule = await create(system, sink)
        assert (
            await ScheduleBook(storage, bus=EventBus()).set_status(str(schedule.id), "paused")
            is not None
        )
        assert await system.scheduler.tick() == []
        assert system.scheduler.job_ids() == []
    assert await history(storage, schedule) == []


async def test_a_firing_left_pending_by_a_dead_process_is_adopted_or_tried_again(
    make_system: SystemFactory,
    sink: CollectingSink,
    storage: Storage,
    clock: ManualClock,
    scheduler_settings: SchedulerSettings,
) -> None:
    async with make_system(started=False) as system:
        schedule = await create(system, sink)
        sid = str(schedule.id)
        # A process recorded both firings, started the run for 03.12 only, and died.
        run_id = await system.manager.control.start_scenario(
            chat_id=CHAT,
            user_id=CHAT,
            scenario="book_rooms",
            slots={**schedule.slots, "date": "2026-12-03"},
            lang="ru",
            schedule_id=sid,
        )

        def record(fresh: Schedule) -> bool:
            for day in (dt.date(2026, 11, 26), dt.date(2026, 12, 3)):
                fresh.history.append(
                    ScheduleFiring(target_date=day, status="pending", at=clock.now())
                )
            return True

        await storage.schedules.update(sid, record)
        await system.manager.runner.wait_idle()
        assert await system.scheduler.tick() == []  # pending: its claim may still be held
        clock.advance(dt.timedelta(seconds=scheduler_settings.claim_ttl_seconds + 1))
        assert await system.scheduler.tick() == []  # 03.12 adopted, 26.11 lost
        fresh = await storage.schedules.get(sid)
        assert fresh is not None
        assert [(f.target_date.isoformat(), f.run_id, f.status) for f in fresh.history] == [
            ("2026-11-26", None, "lost"),
            ("2026-12-03", run_id, "done"),
        ]
        clock.advance(dt.timedelta(seconds=scheduler_settings.retry_seconds))
        again = await system.scheduler.tick()
        assert len(again) == 1
        await system.manager.runner.wait_idle()
    assert (await history(storage, schedule))[-1] == ("2026-11-26", "done")
    assert booked(sink).count("Готово: 2026-12-03 18:00–20:00") == 1
