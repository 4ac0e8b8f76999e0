"""Append-only records: events and conversation messages."""

from __future__ import annotations

from typing import Any

from storage.documents import ConversationMessage, Direction, Event
from storage.errors import translate_errors

__all__ = ["ConversationRepository", "EventRepository"]


class EventRepository:
    async def append(
        self, kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
    ) -> Event:
        event = Event(kind=kind, chat_id=chat_id, run_id=run_id, data=data)
        with translate_errors(f"storing event {kind}"):
            await event.insert()
        return event

    async def for_run(self, run_id: str) -> list[Event]:
        with translate_errors(f"loading events of run {run_id}"):
            return await Event.find(Event.run_id == run_id).sort("+at").to_list()

    async def of_kind(self, kind: str, *, limit: int = 100) -> list[Event]:
        with translate_errors(f"loading {kind} events"):
            return await Event.find(Event.kind == kind).sort("-at").limit(limit).to_list()


class ConversationRepository:
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
        with translate_errors(f"storing a message of chat {chat_id}"):
            await message.insert()
        return message

    async def history(self, chat_id: int, *, limit: int = 50) -> list[ConversationMessage]:
        """The last ``limit`` messages, oldest first."""
        with translate_errors(f"loading history of chat {chat_id}"):
            newest = await (
                ConversationMessage.find(ConversationMessage.chat_id == chat_id)
                .sort("-at")
                .limit(limit)
                .to_list()
            )
        return list(reversed(newest))
