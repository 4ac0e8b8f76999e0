"""Append-only records: events and conversation messages.

Appends are group-committed by a ``BatchWriter`` (they return before the write); every
read flushes first, so what this process appended is always seen. Stored times have
millisecond precision, so records of one batch are ordered by ``_id`` too (pymongo's
ids count up within a process).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.store.records import Direction, utcnow
from storage.batching import BatchWriter
from storage.documents import ConversationMessageDocument, EventDocument
from storage.errors import translate_errors

__all__ = ["ConversationRepository", "EventRepository", "event_row", "message_row"]


# Stored rows of ``EventDocument`` and ``ConversationMessageDocument``, field for field
# (a test holds them to the documents): written on every message, so no document is
# built for them.
def event_row(
    kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
) -> dict[str, Any]:
    row: dict[str, Any] = {"kind": kind, "chat_id": chat_id, "at": utcnow(), "data": data}
    if run_id is not None:  # left out otherwise, so the sparse run index skips the row
        row["run_id"] = run_id
    return row


def message_row(
    *, chat_id: int, direction: Direction, text: str, user_id: int | None, run_id: str | None
) -> dict[str, Any]:
    return {
        "chat_id": chat_id,
        "user_id": user_id,
        "direction": direction.value,
        "text": text,
        "run_id": run_id,
        "at": utcnow(),
    }


class EventRepository:
    """``core.store.EventLog``, group-committed."""

    def __init__(self, writer: BatchWriter) -> None:
        self._writer = writer

    async def append(
        self, kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
    ) -> None:
        self._writer.append(event_row(kind, chat_id=chat_id, run_id=run_id, data=data))

    async def flush(self) -> None:
        await self._writer.flush()

    async def for_run(self, run_id: str) -> list[EventDocument]:
        await self._writer.flush()
        with translate_errors(f"loading events of run {run_id}"):
            return (
                await EventDocument.find(EventDocument.run_id == run_id)
                .sort("+at", "+_id")
                .to_list()
            )


class ConversationRepository:
    """``core.store.ConversationLog``, group-committed."""

    def __init__(self, writer: BatchWriter) -> None:
        self._writer = writer

    async def append(
        self,
        *,
        chat_id: int,
        direction: Direction,
        text: str,
        user_id: int | None = None,
        run_id: str | None = None,
    ) -> None:
        self._writer.append(
            message_row(
                chat_id=chat_id, direction=direction, text=text, user_id=user_id, run_id=run_id
            )
        )

    async def flush(self) -> None:
        await self._writer.flush()

    async def history(self, chat_id: int, *, limit: int = 50) -> list[ConversationMessageDocument]:
        """The last ``limit`` messages, oldest first."""
        await self._writer.flush()
        with translate_errors(f"loading history of chat {chat_id}"):
            newest = await (
                ConversationMessageDocument.find(ConversationMessageDocument.chat_id == chat_id)
                .sort("-at", "-_id")
                .limit(limit)
                .to_list()
            )
        return list(reversed(newest))

    async def between(
        self, chat_id: int, *, since: datetime, until: datetime
    ) -> list[ConversationMessageDocument]:
        """Uses the (chat_id, at) index; for a run's timeline."""
        await self._writer.flush()
        with translate_errors(f"loading messages of chat {chat_id}"):
            return (
                await ConversationMessageDocument.find(
                    ConversationMessageDocument.chat_id == chat_id,
                    ConversationMessageDocument.at >= since,
                    ConversationMessageDocument.at <= until,
                )
                .sort("+at", "+_id")
                .to_list()
            )
