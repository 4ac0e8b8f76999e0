"""What ``clubman runs`` and ``clubman replay`` read: recent runs (of one chat or all,
since a moment) and a chat's messages in a span of time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from core.store import Direction, ScenarioRun
from storage import Storage

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)


async def test_recent_runs_newest_first_by_chat_and_since(storage: Storage) -> None:
    for n, chat in enumerate([1, 2, 1, 1]):
        when = T0 + timedelta(hours=n)
        run = ScenarioRun(chat_id=chat, user_id=chat, scenario="s", created_at=when)
        await storage.runs.create(run.model_copy(update={"short_id": f"run{n}"}))

    everyone = await storage.runs.recent()
    assert [r.short_id for r in everyone] == ["run3", "run2", "run1", "run0"]
    chat_1 = await storage.runs.recent(chat_id=1, since=T0 + timedelta(minutes=30))
    assert [r.short_id for r in chat_1] == ["run3", "run2"]
    assert [r.short_id for r in await storage.runs.recent(limit=1)] == ["run3"]


async def test_messages_between_two_moments_oldest_first(storage: Storage) -> None:
    before = datetime.now(UTC)
    await storage.conversations.append(chat_id=7, direction=Direction.IN, text="один")
    await storage.conversations.append(chat_id=7, direction=Direction.OUT, text="два", run_id="r")
    await storage.conversations.append(chat_id=8, direction=Direction.IN, text="чужое")
    after = datetime.now(UTC) + timedelta(seconds=1)

    found = await storage.conversations.between(7, since=before - timedelta(seconds=1), until=after)
    assert [(m.text, m.run_id) for m in found] == [("один", None), ("два", "r")]
    assert await storage.conversations.between(7, since=after, until=after) == []
