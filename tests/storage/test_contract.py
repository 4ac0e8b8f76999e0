"""Storage keeps the core's contract (core.store) and the booking job's
(scenarios.booking.records): its documents are the records, its repositories the stores,
a record the core built becomes stored through ``create``."""

from __future__ import annotations

import pytest
from beanie import Document
from pydantic import BaseModel

from core.store import ConversationMessage, Event, OpenStore, RunStatus, ScenarioRun, Store, User
from scenarios.booking.records import BookingStore, Schedule
from storage import (
    ConversationMessageDocument,
    EventDocument,
    ScenarioRunDocument,
    ScheduleDocument,
    Storage,
    UserDocument,
    open_storage,
)

_PAIRS: list[tuple[type[Document], type[BaseModel]]] = [
    (UserDocument, User),
    (ConversationMessageDocument, ConversationMessage),
    (EventDocument, Event),
    (ScenarioRunDocument, ScenarioRun),
    (ScheduleDocument, Schedule),
]


@pytest.mark.parametrize(("document", "record"), _PAIRS)
def test_each_document_is_its_record_with_beanies_identity(
    document: type[Document], record: type[BaseModel]
) -> None:
    assert issubclass(document, record)
    fields = document.model_fields
    assert set(fields) - {"id", "revision_id"} == set(record.model_fields) - {"id"}
    assert fields["id"].alias == "_id"  # Beanie's, not the record's opaque one


def test_storage_is_a_store() -> None:
    # Checked by mypy: the facade and its opener fit what the core and the booking job
    # type against.
    store: type[Store] = Storage
    booking: type[BookingStore] = Storage
    opener: OpenStore = open_storage
    assert store is Storage and booking is Storage and opener is open_storage


async def test_a_record_the_core_built_is_stored_by_create(storage: Store) -> None:
    record = ScenarioRun(chat_id=3, user_id=3, scenario="book_rooms", slots={"rooms": 2})
    run = await storage.runs.create(record)
    assert isinstance(run, ScenarioRun) and run.short_id == record.short_id
    run.status = RunStatus.RUNNING
    await storage.runs.save(run)
    loaded = await storage.runs.get(record.short_id)
    assert loaded is not None and loaded.status is RunStatus.RUNNING
    assert loaded.slots == {"rooms": 2}
    assert [r.short_id for r in await storage.runs.active_for_chat(3)] == [record.short_id]


async def test_saving_a_record_never_stored_is_refused(storage: BookingStore) -> None:
    with pytest.raises(TypeError, match="save what create returned"):
        await storage.runs.save(ScenarioRun(chat_id=3, user_id=3, scenario="book_rooms"))
    with pytest.raises(TypeError):
        await storage.users.save(User(telegram_id=3))
    with pytest.raises(TypeError):
        await storage.schedules.save(
            Schedule(owner_id=3, chat_id=3, weekdays=["mon"], timezone="UTC")
        )


async def test_a_schedule_gets_its_id_from_the_store(storage: BookingStore) -> None:
    record = Schedule(owner_id=4, chat_id=4, weekdays=["mon"], timezone="UTC")
    assert record.id is None
    schedule = await storage.schedules.create(record)
    assert schedule.id is not None
    loaded = await storage.schedules.get(str(schedule.id))
    assert loaded is not None and loaded.weekdays == ["mon"]
