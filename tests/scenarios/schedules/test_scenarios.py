"""Creating, listing, pausing, resuming and deleting schedules through the core: every
action is a question and a tapped option, as the Telegram view sends it."""

from __future__ import annotations

from core.clock import ManualClock
from core.events import EventBus
from core.output import Done, Question
from scenarios.booking.records import ScheduleStatus
from scenarios.booking.schedules import ScheduleBook
from storage import Storage
from tests.scenarios.schedules.conftest import CHAT, SystemFactory
from tests.scenarios.schedules.test_service import CREATE, create, history
from tests.support.sinks import CollectingSink

LABEL = "чт 18:00–20:00, 405, Главный корпус"


async def test_create_confirms_with_a_summary_and_two_buttons(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system(started=False) as system:
        await system.say(CREATE)
        confirm = await sink.wait_for(Question)
        assert confirm.key == "confirm" and not confirm.allow_free_text
        assert confirm.text.startswith(f"Создать регулярную бронь: каждую неделю {LABEL}?")
        assert [(o.id, o.label) for o in confirm.options] == [
            ("create", "Создать"),
            ("cancel", "Отмена"),
        ]
        await system.tap(confirm, "create")
        done = await sink.wait_for(Done, lambda d: d.run_id == confirm.run_id)
        assert done.text.startswith(f"Регулярная бронь создана: {LABEL}.")
    [schedule] = await storage.schedules.for_owner(CHAT)
    assert schedule.chat_id == CHAT and schedule.weekdays == ["thu"]
    assert schedule.timezone == "Europe/Moscow" and schedule.status is ScheduleStatus.ACTIVE
    assert schedule.slots == {
        "start": "18:00",
        "end": "20:00",
        "rooms": 1,
        "adjacent": False,
        "building": "main",
        "room": ["405"],
    }


async def test_missing_slots_are_clarified_and_cancel_creates_nothing(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system(started=False) as system:
        await system.say("бронируй по понедельникам и средам")
        for key, answer in (("start", "10"), ("end", "12:00"), ("building", "главный")):
            question = sink.last(Question)
            assert question.key == key
            await system.say(answer)
        confirm = await sink.wait_for(Question, lambda q: q.key == "confirm")
        assert "пн, ср 10:00–12:00, Главный корпус" in confirm.text
        await system.tap(confirm, "cancel")
        done = await sink.wait_for(Done, lambda d: d.run_id == confirm.run_id)
        assert done.text == "Хорошо, не создаю."
    assert await storage.schedules.for_owner(CHAT) == []


async def test_weekdays_asked_with_buttons_when_missing(
    make_system: SystemFactory, sink: CollectingSink
) -> None:
    async with make_system(started=False) as system:
        await system.say("регулярно бронируй 405 в главном с 18 до 20", intent="schedule_booking")
        question = sink.last(Question)
        assert question.key == "recurrence"
        assert [o.id for o in question.options] == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        await system.tap(question, "fri")
        confirm = await sink.wait_for(Question, lambda q: q.key == "confirm")
        assert "пт 18:00–20:00, 405, Главный корпус" in confirm.text


async def test_the_same_request_twice_keeps_one_schedule(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage
) -> None:
    async with make_system(started=False) as system:
        first = await create(system, sink)
        second = await create(system, sink)
    assert first.id == second.id


async def test_list_pause_resume_delete_by_tapping(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    async with make_system() as system:
        schedule = await create(system, sink)
        sid = str(schedule.id)
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-03 18:00–20:00")
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-11-26 18:00–20:00")
        mark = len(sink.outputs)
        await system.say("регулярные брони", intent="list_schedules")
        listing = await sink.wait_for(Question, after=mark)
        assert listing.key == "act1" and not listing.allow_free_text
        assert listing.text == f"Регулярные брони:\n• {LABEL} — активна"
        assert [(o.id, o.label) for o in listing.options] == [
            ("p:0", f"⏸ Пауза: {LABEL}"),
            ("d:0", f"🗑 Удалить: {LABEL}"),
            ("done", "✅ Готово"),
        ]
        assert all(len(o.id) <= 24 for o in listing.options)

        await system.tap(listing, "p:0")
        paused = await sink.wait_for(Question, lambda q: q.key == "act2", after=mark)
        assert paused.text.endswith("— на паузе")
        assert [o.id for o in paused.options] == ["r:0", "d:0", "done"]
        assert (await storage.schedules.get(sid)).status is ScheduleStatus.PAUSED  # type: ignore[union-attr]
        assert system.scheduler.job_ids() == []
        # A week later, paused: 10.12 is not booked.
        clock.set(clock.now().replace(day=30))
        assert await system.scheduler.tick() == []

        await system.tap(paused, "r:0")
        resumed = await sink.wait_for(Question, lambda q: q.key == "act3", after=mark)
        assert [o.id for o in resumed.options] == ["p:0", "d:0", "done"]
        assert system.scheduler.job_ids() == [sid]
        await sink.wait_for(Done, lambda d: d.text == "Готово: 2026-12-10 18:00–20:00")

        await system.tap(resumed, "d:0")
        done = await sink.wait_for(Done, lambda d: d.run_id == listing.run_id)
        assert done.text.startswith("Регулярных броней нет.")
        assert (await storage.schedules.get(sid)).status is ScheduleStatus.DELETED  # type: ignore[union-attr]
        assert system.scheduler.job_ids() == []
    assert sorted(await history(storage, schedule)) == [
        ("2026-11-26", "done"),
        ("2026-12-03", "done"),
        ("2026-12-10", "done"),
    ]


async def test_done_closes_the_list(make_system: SystemFactory, sink: CollectingSink) -> None:
    async with make_system(started=False) as system:
        await create(system, sink)
        mark = len(sink.outputs)
        await system.say("какие у меня регулярные брони")
        listing = await sink.wait_for(Question, after=mark)
        await system.tap(listing, "done")
        done = await sink.wait_for(Done, lambda d: d.run_id == listing.run_id)
        assert done.text == f"Регулярные брони:\n• {LABEL} — активна"


async def test_cancel_by_weekday_takes_the_day_out_or_asks_which(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    book = ScheduleBook(storage, bus=EventBus(), clock=clock)
    slots = {"start": "18:00", "end": "20:00", "rooms": 1, "building": "main", "room": ["405"]}
    thursday = await book.create(
        owner_id=CHAT, chat_id=CHAT, weekdays=["thu"], slots=slots, timezone="Europe/Moscow"
    )
    monwed = await book.create(
        owner_id=CHAT, chat_id=CHAT, weekdays=["mon", "wed"], slots=slots, timezone="Europe/Moscow"
    )
    async with make_system(started=False) as system:
        await system.say("отключи автобронь по средам")
        confirm = await sink.wait_for(Question)
        assert confirm.text == (
            "Отключить регулярную бронь пн, ср 18:00–20:00, 405, Главный корпус по дням: ср?"
        )
        assert (await storage.schedules.get(monwed.id)).weekdays == ["mon", "wed"]  # type: ignore[union-attr]
        await system.tap(confirm, "yes")
        done = await sink.wait_for(Done)
        assert done.text == "Отключено по дням: ср. Осталось: пн 18:00–20:00, 405, Главный корпус."
        assert (await storage.schedules.get(monwed.id)).weekdays == ["mon"]  # type: ignore[union-attr]
        mark = len(sink.outputs)
        await system.say("удали регулярную бронь")
        which = await sink.wait_for(Question, after=mark)
        assert which.key == "which" and len(which.options) == 2
        chosen = next(o for o in which.options if o.label.startswith("чт"))
        await system.tap(which, chosen.id)
        confirm = await sink.wait_for(Question, lambda q: q.key == "confirm", after=mark)
        assert confirm.key == "confirm" and confirm.text == f"Удалить регулярную бронь {LABEL}?"
        await system.tap(confirm, "yes")
        done = await sink.wait_for(Done, after=mark)
        assert done.text.startswith(f"Регулярная бронь удалена: {LABEL}.")
    gone = await storage.schedules.get(thursday.id)
    assert gone is not None and gone.status is ScheduleStatus.DELETED
    assert [str(s.id) for s in await storage.schedules.for_owner(CHAT)] == [monwed.id]


async def test_a_schedule_said_no_to_stays(
    make_system: SystemFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> None:
    """«больше не занимай 405 по четвергам» is confirmed first; «Нет» keeps it whole."""
    book = ScheduleBook(storage, bus=EventBus(), clock=clock)
    slots = {"start": "18:00", "end": "20:00", "rooms": 1, "building": "main", "room": ["405"]}
    other = {**slots, "room": ["301"]}
    thursday = await book.create(
        owner_id=CHAT, chat_id=CHAT, weekdays=["thu"], slots=slots, timezone="Europe/Moscow"
    )
    await book.create(
        owner_id=CHAT, chat_id=CHAT, weekdays=["thu"], slots=other, timezone="Europe/Moscow"
    )
    async with make_system(started=False) as system:
        await system.say("больше не занимай нам 405 по четвергам")
        confirm = await sink.wait_for(Question)  # the room named picks one of the two
        assert confirm.key == "confirm" and confirm.text == f"Удалить регулярную бронь {LABEL}?"
        await system.tap(confirm, "no")
        done = await sink.wait_for(Done)
        assert done.text == "Хорошо, регулярную бронь не трогаю."
    kept = await storage.schedules.get(thursday.id)
    assert kept is not None and kept.status is ScheduleStatus.ACTIVE
