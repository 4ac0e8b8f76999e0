"""Document contract suite: runs against every MongoDB backend (SecantusDB, real MongoDB)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest

from core.errors import ConcurrencyError
from core.store import (
    Direction,
    OptionRecord,
    PendingQuestion,
    RunStatus,
    ScenarioRun,
    StepRecord,
    StepStatus,
)
from scenarios.booking.records import Schedule, ScheduleFiring, ScheduleStatus
from storage import EventDocument, Storage
from storage.mongo import open_mongo


def _run(chat_id: int = 1, **fields: object) -> ScenarioRun:
    return ScenarioRun(chat_id=chat_id, user_id=chat_id, scenario="book_rooms", **fields)


async def test_run_round_trip_keeps_every_field(storage: Storage) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    run = _run(
        slots={"date": "2026-11-26", "rooms": 3, "adjacent": True},
        status=RunStatus.WAITING,
        steps=[
            StepRecord(
                name="login",
                status=StepStatus.DONE,
                result={"user": "club"},
                started_at=now,
                finished_at=now,
            )
        ],
        question=PendingQuestion(
            key="building",
            text="В каком корпусе?",
            options=[OptionRecord(id="main", label="Главный")],
        ),
        answers={"confirm": "yes"},
        expires_at=now + timedelta(hours=1),
    )
    await storage.runs.create(run)
    loaded = await storage.runs.get(run.short_id)
    assert loaded is not None
    assert loaded.slots == {"date": "2026-11-26", "rooms": 3, "adjacent": True}
    assert loaded.status is RunStatus.WAITING
    assert loaded.steps[0].result == {"user": "club"}
    assert loaded.steps[0].started_at == now
    assert loaded.question is not None and loaded.question.options[0].label == "Главный"
    assert loaded.answers == {"confirm": "yes"}
    assert loaded.done_steps() == {"login"}
    assert loaded.expires_at == now + timedelta(hours=1)


async def test_short_ids_are_unique_and_callback_sized(storage: Storage) -> None:
    runs = [await storage.runs.create(_run()) for _ in range(20)]
    ids = {run.short_id for run in runs}
    assert len(ids) == 20
    assert all(len(short_id.encode()) <= 10 for short_id in ids)


async def test_second_writer_of_a_run_gets_concurrency_error(storage: Storage) -> None:
    run = await storage.runs.create(_run())
    first = await storage.runs.get(run.short_id)
    second = await storage.runs.get(run.short_id)
    assert first is not None and second is not None
    first.status = RunStatus.RUNNING
    await storage.runs.save(first)
    second.status = RunStatus.CANCELLED
    with pytest.raises(ConcurrencyError):
        await storage.runs.save(second)
    final = await storage.runs.get(run.short_id)
    assert final is not None and final.status is RunStatus.RUNNING


async def test_concurrent_writers_exactly_one_wins(storage: Storage) -> None:
    run = await storage.runs.create(_run())
    copies = [await storage.runs.get(run.short_id) for _ in range(5)]

    async def write(copy: ScenarioRun | None, n: int) -> bool:
        assert copy is not None
        copy.summary = f"writer {n}"
        try:
            await storage.runs.save(copy)
        except ConcurrencyError:
            return False
        return True

    results = await asyncio.gather(*(write(copy, n) for n, copy in enumerate(copies)))
    assert results.count(True) == 1


async def test_index_backed_run_queries(storage: Storage) -> None:
    now = datetime.now(UTC)
    waiting = await storage.runs.create(
        _run(7, status=RunStatus.WAITING, expires_at=now - timedelta(seconds=1))
    )
    collecting = await storage.runs.create(
        _run(7, status=RunStatus.COLLECTING, expires_at=now + timedelta(hours=1))
    )
    running = await storage.runs.create(_run(7, status=RunStatus.RUNNING))
    await storage.runs.create(_run(7, status=RunStatus.DONE))
    await storage.runs.create(_run(8, status=RunStatus.RUNNING))

    active = await storage.runs.active_for_chat(7)
    assert [r.short_id for r in active] == [waiting.short_id, collecting.short_id, running.short_id]
    assert {r.chat_id for r in await storage.runs.with_status(RunStatus.RUNNING)} == {7, 8}
    assert [r.short_id for r in await storage.runs.expired(now)] == [waiting.short_id]
    assert len(await storage.runs.recent_for_chat(7, limit=3)) == 3


async def test_events_in_order_per_run(storage: Storage) -> None:
    for n in range(3):
        await storage.events.append("step.done", chat_id=1, run_id="r1", data={"n": n})
    await storage.events.append("step.done", chat_id=1, run_id="other", data={})
    await storage.events.append("command.received", chat_id=1, run_id=None, data={})
    events = await storage.events.for_run("r1")
    assert [e.data["n"] for e in events] == [0, 1, 2]
    in_chat = await EventDocument.find(EventDocument.chat_id == 1).sort("+_id").to_list()
    assert [e.run_id for e in in_chat] == ["r1", "r1", "r1", "other", None]


async def test_a_runs_timeline_is_read_through_the_run_index(storage: Storage) -> None:
    await storage.events.append("step.done", chat_id=1, run_id="r1", data={})
    await storage.events.append("command.received", chat_id=1, run_id=None, data={})
    await storage.events.flush()
    collection = EventDocument.get_pymongo_collection()
    plan = (await collection.find({"run_id": "r1"}).explain())["queryPlanner"]["winningPlan"]
    assert "IXSCAN" in str(plan) and "COLLSCAN" not in str(plan)
    assert {i["key"][0][0] for i in (await collection.index_information()).values()} == {
        "_id", "run_id",
    }  # fmt: skip


async def test_indexes_of_earlier_versions_are_dropped(mongo_uri: str) -> None:
    db_name = f"t_{uuid.uuid4().hex[:12]}"
    async with open_mongo(mongo_uri, db_name=db_name) as client:
        events = client[db_name]["events"]
        await events.create_index([("kind", 1), ("at", 1)])
        await events.create_index([("run_id", 1), ("at", 1)])
    async with open_mongo(mongo_uri, db_name=db_name) as client:
        names = set(await client[db_name]["events"].index_information())
    assert names == {"_id_", "run_id_1"}


async def test_conversation_history_oldest_first_limited(storage: Storage) -> None:
    for n in range(5):
        await storage.conversations.append(chat_id=3, direction=Direction.IN, text=f"m{n}")
    await storage.conversations.append(chat_id=4, direction=Direction.OUT, text="elsewhere")
    history = await storage.conversations.history(3, limit=3)
    assert [m.text for m in history] == ["m2", "m3", "m4"]


async def test_user_get_or_create_is_idempotent_under_concurrency(storage: Storage) -> None:
    users = await asyncio.gather(
        *(storage.users.get_or_create(42, name="Anna", language="en") for _ in range(5))
    )
    assert len({u.id for u in users}) == 1
    user = users[0]
    assert (user.name, user.language) == ("Anna", "en")
    user.timezone = "Asia/Yekaterinburg"
    user.portal_password_encrypted = b"\x00secret-token"
    await storage.users.save(user)
    again = await storage.users.get(42)
    assert again is not None
    assert again.timezone == "Asia/Yekaterinburg"
    assert again.portal_password_encrypted == b"\x00secret-token"


async def test_preferences_ranked_by_use(storage: Storage) -> None:
    for value in ["main", "chaikovsky", "chaikovsky", "lab", "chaikovsky", "main"]:
        await storage.preferences.bump(5, "building", value)
    await storage.preferences.bump(6, "building", "lab")
    assert await storage.preferences.ranked(5, "building") == ["chaikovsky", "main", "lab"]
    assert await storage.preferences.ranked(5, "time") == []


async def test_schedule_round_trip_and_listing(storage: Storage) -> None:
    schedule = await storage.schedules.create(
        Schedule(
            owner_id=9,
            chat_id=9,
            slots={"room": ["405"], "start": "18:00"},
            weekdays=["thu"],
            timezone="Europe/Moscow",
        )
    )
    paused = await storage.schedules.create(
        Schedule(
            owner_id=9, chat_id=9, weekdays=["mon"], timezone="UTC", status=ScheduleStatus.PAUSED
        )
    )
    await storage.schedules.create(
        Schedule(
            owner_id=9, chat_id=9, weekdays=["fri"], timezone="UTC", status=ScheduleStatus.DELETED
        )
    )
    loaded = await storage.schedules.get(str(schedule.id))
    assert loaded is not None and loaded.slots["room"] == ["405"]
    loaded.history.append(ScheduleFiring(target_date=date(2026, 12, 3), status="booked"))
    await storage.schedules.save(loaded)
    reloaded = await storage.schedules.get(str(schedule.id))
    assert reloaded is not None and reloaded.history[0].target_date == date(2026, 12, 3)
    assert [s.id for s in await storage.schedules.for_owner(9)] == [schedule.id, paused.id]
    assert len(await storage.schedules.live()) == 2
    assert await storage.schedules.get("not-an-id") is None
