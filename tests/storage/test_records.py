"""Append-only records: rows match their documents, group commit, read-your-writes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pymongo.errors import AutoReconnect

from core.store import Direction
from storage import ConversationMessageDocument, EventDocument, Storage
from storage.batching import BatchWriter
from storage.records import event_row, message_row


def _document_fields(document: type[EventDocument] | type[ConversationMessageDocument]) -> set[str]:
    return set(document.model_fields) - {"id", "revision_id"}


def test_rows_have_exactly_the_documents_fields() -> None:
    event = event_row("k", chat_id=1, run_id="r1", data={})
    message = message_row(chat_id=1, direction=Direction.IN, text="t", user_id=None, run_id=None)
    assert set(event) == _document_fields(EventDocument)
    assert set(message) == _document_fields(ConversationMessageDocument)


def test_an_event_of_no_run_is_stored_without_run_id() -> None:
    # Left out, not null: the sparse run index then has no entry to write for it.
    assert "run_id" not in event_row("k", chat_id=1, run_id=None, data={})


async def _stored_kinds(kind: str) -> list[EventDocument]:
    return await EventDocument.find(EventDocument.kind == kind).to_list()


async def test_appended_records_read_back_as_documents(storage: Storage) -> None:
    await storage.events.append("step.done", chat_id=5, run_id="r5", data={"n": 1})
    await storage.conversations.append(
        chat_id=5, direction=Direction.OUT, text="готово", user_id=None, run_id="r5"
    )
    [event] = await storage.events.for_run("r5")
    [message] = await storage.conversations.history(5)
    assert (event.kind, event.chat_id, event.data, event.at.tzinfo is not None) == (
        "step.done",
        5,
        {"n": 1},
        True,
    )
    assert (message.direction, message.text, message.run_id) == (Direction.OUT, "готово", "r5")


async def test_concurrent_appends_are_written_in_few_batches(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    inserts = 0
    collection = EventDocument.get_pymongo_collection()
    original = collection.insert_many

    async def counting(rows: Any, **kwargs: Any) -> Any:
        nonlocal inserts
        inserts += 1
        return await original(rows, **kwargs)

    monkeypatch.setattr(collection, "insert_many", counting)
    await asyncio.gather(
        *(storage.events.append("burst", chat_id=n, run_id=None, data={}) for n in range(200))
    )
    await storage.events.flush()
    assert len(await _stored_kinds("burst")) == 200
    assert 1 <= inserts < 20


async def test_a_failed_batch_is_retried_without_duplicates(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    collection = EventDocument.get_pymongo_collection()
    original = collection.insert_many
    calls = 0

    async def flaky(rows: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            # Half the rows reach the server, then the connection drops.
            await original(rows[: len(rows) // 2], **kwargs)
            raise AutoReconnect("connection reset")
        return await original(rows, **kwargs)

    monkeypatch.setattr(collection, "insert_many", flaky)
    for n in range(10):
        await storage.events.append("flaky", chat_id=n, run_id=None, data={"n": n})
    await storage.events.flush()
    stored = await _stored_kinds("flaky")
    assert sorted(e.data["n"] for e in stored) == list(range(10))
    assert calls >= 2


async def test_appending_to_a_closed_writer_is_an_error() -> None:
    writer = BatchWriter(EventDocument)
    with pytest.raises(RuntimeError, match="not open"):
        writer.append(event_row("k", chat_id=None, run_id=None, data={}))


async def test_closing_a_lingering_writer_writes_its_rows_and_stops_regression(
    storage: Storage,
) -> None:
    # The hang: the writer was cancelled while lingering, and on Python 3.11
    # asyncio.wait_for swallowed the cancel, so closing storage waited forever.
    async with asyncio.timeout(5):
        async with BatchWriter(EventDocument, linger_seconds=30) as writer:
            writer.append(event_row("closing", chat_id=1, run_id=None, data={}))
    assert [e.kind for e in await _stored_kinds("closing")] == ["closing"]


async def test_writers_sharing_a_turn_never_insert_at_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_flight = most = 0

    def overlapping(collection: Any) -> None:
        original = collection.insert_many

        async def insert_many(rows: Any, **kwargs: Any) -> Any:
            nonlocal in_flight, most
            in_flight += 1
            most = max(most, in_flight)
            try:
                await asyncio.sleep(0.01)  # long enough for the other writer to start
                return await original(rows, **kwargs)
            finally:
                in_flight -= 1

        monkeypatch.setattr(collection, "insert_many", insert_many)

    overlapping(EventDocument.get_pymongo_collection())
    overlapping(ConversationMessageDocument.get_pymongo_collection())
    for n in range(20):
        await storage.events.append("turns", chat_id=n, run_id=None, data={})
        await storage.conversations.append(chat_id=n, direction=Direction.IN, text=f"m{n}")
        await asyncio.sleep(0.005)
    await asyncio.gather(storage.events.flush(), storage.conversations.flush())
    assert len(await _stored_kinds("turns")) == 20
    assert most == 1


async def test_writers_with_their_own_turns_do_insert_at_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The control for the test above: without a shared turn the overlap does happen.
    started = asyncio.Event()
    overlapped = False
    collection = EventDocument.get_pymongo_collection()
    original = collection.insert_many

    async def insert_many(rows: Any, **kwargs: Any) -> Any:
        nonlocal overlapped
        overlapped = overlapped or started.is_set()
        started.set()
        await asyncio.sleep(0.05)
        return await original(rows, **kwargs)

    monkeypatch.setattr(collection, "insert_many", insert_many)
    async with (
        BatchWriter(EventDocument, linger_seconds=0) as first,
        BatchWriter(EventDocument, linger_seconds=0) as second,
    ):
        first.append(event_row("own", chat_id=1, run_id=None, data={}))
        second.append(event_row("own", chat_id=2, run_id=None, data={}))
        await asyncio.gather(first.flush(), second.flush())
    assert overlapped
