"""Append-only records: events and conversation messages.

Appends are group-committed by a ``BatchWriter`` (they return before the write); every
read flushes first, so what this process appended is always seen. Stored times have
millisecond precision, so records of one batch are ordered by ``_id`` too (pymongo's
ids count up within a process).
"""

from __future__ import annotations

from typing import Any

from storage.batching import BatchWriter
from storage.documents import ConversationMessage, Direction, Event
from storage.errors import translate_errors

__all__ = ["ConversationRepository", "EventRepository"]


class EventRepository:
    def __init__(self, writer: BatchWriter[Event]) -> None:
        self._writer = writer

    async def append(
        self, kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
    ) -> Event:
        event = Event(kind=kind, chat_id=chat_id, run_id=run_id, data=data)
        self._writer.append(event)
        return event

    async def flush(self) -> None:
        await self._writer.flush()

    async def for_run(self, run_id: str) -> list[Event]:
        await self._writer.flush()
        with translate_errors(f"loading events of run {run_id}"):
            return await Event.find(Event.run_id == run_id).sort("+at", "+_id").to_list()

    async def of_kind(self, kind: str, *, limit: int = 100) -> list[Event]:
        await self._writer.flush()
        with translate_errors(f"loading {kind} events"):
            return await Event.find(Event.kind == kind).sort("-at", "-_id").limit(limit).to_list()


class ConversationRepository:
    def __init__(self, writer: BatchWriter[ConversationMessage]) -> None:
        self._writer = writer

    async def append(
        self,
        *,
        chat_id: int,
        direction: Direction,
        text: str,
        user_id: int | None = None,
        run_id: str | None = None,
    ) -> ConversationMessage:
        message = ConversationMessage(
            chat_id=chat_id, user_id=user_id, direction=direction, text=text, run_id=run_id
        )
        self._writer.append(message)
        return message

    async def flush(self) -> None:
        await self._writer.flush()

    async def history(self, chat_id: int, *, limit: int = 50) -> list[ConversationMessage]:
        """The last ``limit`` messages, oldest first."""
        await self._writer.flush()
        with translate_errors(f"loading history of chat {chat_id}"):
            newest = await (
                ConversationMessage.find(ConversationMessage.chat_id == chat_id)
                .sort("-at", "-_id")
                .limit(limit)
                .to_list()
            )
        return list(reversed(newest))
