"""Scenario runs: the durable state of every conversation-driven job."""

from __future__ import annotations

import asyncio
from datetime import datetime
from uuid import UUID

from core.errors import StorageUnavailable
from core.store.records import ACTIVE_STATUSES, ReplyState, RunStatus, ScenarioRun, utcnow
from storage.active_runs import ActiveRunIndex
from storage.documents import ScenarioRunDocument, stored
from storage.errors import translate_errors

__all__ = ["RunRepository"]

_ACTIVE_VALUES = [s.value for s in ACTIVE_STATUSES]


class RunRepository:
    """``core.store.RunStore`` on MongoDB, with the active runs indexed in Redis."""

    def __init__(self, index: ActiveRunIndex) -> None:
        self._index = index
        # run → the revision it had before a save whose outcome is unknown (see save)
        self._unsure: dict[str, UUID | None] = {}
        # One rebuild at a time: after Redis lost the index, every chat's next message
        # finds it incomplete, and each would scan every active run again.
        self._rebuilding = asyncio.Lock()

    def pin_chat(self, chat_id: int) -> None:
        """This process alone acts in the chat until ``unpin_chat`` (see ActiveRunIndex)."""
        self._index.pin(chat_id)

    def unpin_chat(self, chat_id: int) -> None:
        self._index.unpin(chat_id)

    async def create(self, run: ScenarioRun) -> ScenarioRunDocument:
        """Store a new run; returns it as the document later saves must be given."""
        # One shallow copy per new run (nested records are shared, not copied); a
        # run loaded from here is already a document.
        document = (
            run
            if isinstance(run, ScenarioRunDocument)
            else ScenarioRunDocument.model_validate(run.__dict__)
        )
        if document.status.active:
            await self._index.add(document.chat_id, document.short_id)
        with translate_errors(f"creating run {document.short_id}"):
            await document.insert()
        return document

    async def get(self, short_id: str) -> ScenarioRunDocument | None:
        with translate_errors(f"loading run {short_id}"):
            return await ScenarioRunDocument.find_one(ScenarioRunDocument.short_id == short_id)

    async def save(self, run: ScenarioRun) -> ScenarioRunDocument:
        """Write the whole run; raises ``ConcurrencyError`` if it changed since it was read.

        Beanie gives the document its next revision before it writes. When the write
        fails with the server unreachable, it may or may not have landed, so the next
        save of the run first looks which revision the database holds (the runner tries
        again after an outage)."""
        document = stored(run, ScenarioRunDocument, f"run {run.short_id}")
        document.updated_at = utcnow()
        if run.status.active:
            await self._index.add(run.chat_id, run.short_id)
        await self._settle_revision(document)
        before = document.revision_id
        try:
            with translate_errors(f"saving run {run.short_id}"):
                await document.replace()
        except StorageUnavailable:
            self._unsure[run.short_id] = before
            raise
        if not run.status.active:
            await self._index.remove(run.chat_id, run.short_id)
        return document

    async def _settle_revision(self, document: ScenarioRunDocument) -> None:
        if document.short_id not in self._unsure:
            return
        with translate_errors(f"loading run {document.short_id}"):
            held = await ScenarioRunDocument.find_one(
                ScenarioRunDocument.short_id == document.short_id
            )
        before = self._unsure.pop(document.short_id)
        if held is not None and held.revision_id == before:  # the failed write did not land
            document.revision_id = before

    async def active_for_chat(self, chat_id: int) -> list[ScenarioRunDocument]:
        indexed = await self._index.members(chat_id)
        if indexed is None:
            async with self._rebuilding:
                indexed = await self._index.members(chat_id)  # another rebuilt it meanwhile
                if indexed is None:
                    await self.rebuild_index()
                    return await self._active_in_mongo(chat_id)
        if not indexed:
            return []
        with translate_errors(f"listing active runs of chat {chat_id}"):
            found = await (
                ScenarioRunDocument.find({"short_id": {"$in": sorted(indexed)}})
                .sort("+created_at")
                .to_list()
            )
        # Only ids whose run is stored and finished are dropped: a run being created
        # right now is indexed before it is stored and must keep its id.
        await self._index.remove(
            chat_id, *(r.short_id for r in found if not r.status.active or r.chat_id != chat_id)
        )
        return [r for r in found if r.status.active and r.chat_id == chat_id]

    async def _active_in_mongo(self, chat_id: int) -> list[ScenarioRunDocument]:
        with translate_errors(f"listing active runs of chat {chat_id}"):
            return await (
                ScenarioRunDocument.find(
                    ScenarioRunDocument.chat_id == chat_id, {"status": {"$in": _ACTIVE_VALUES}}
                )
                .sort("+created_at")
                .to_list()
            )

    async def rebuild_index(self) -> None:
        """Index every active run stored in MongoDB (at start-up, or after Redis lost it)."""
        with translate_errors("listing active runs"):
            active = await ScenarioRunDocument.find({"status": {"$in": _ACTIVE_VALUES}}).to_list()
        await self._index.rebuild((r.chat_id, r.short_id) for r in active)

    async def with_status(self, status: RunStatus) -> list[ScenarioRunDocument]:
        with translate_errors(f"listing {status} runs"):
            return (
                await ScenarioRunDocument.find(ScenarioRunDocument.status == status)
                .sort("+created_at")
                .to_list()
            )

    async def expired(self, now: datetime) -> list[ScenarioRunDocument]:
        """Runs waiting for an answer whose time ran out."""
        with translate_errors("listing expired runs"):
            return await ScenarioRunDocument.find(
                {"status": {"$in": [RunStatus.COLLECTING.value, RunStatus.WAITING.value]}},
                {"expires_at": {"$lte": now}},
            ).to_list()

    async def recent_for_chat(self, chat_id: int, *, limit: int = 10) -> list[ScenarioRunDocument]:
        with translate_errors(f"listing runs of chat {chat_id}"):
            return await (
                ScenarioRunDocument.find(ScenarioRunDocument.chat_id == chat_id)
                .sort("-created_at")
                .limit(limit)
                .to_list()
            )

    async def recent(
        self, *, chat_id: int | None = None, since: datetime | None = None, limit: int = 50
    ) -> list[ScenarioRunDocument]:
        """For ``clubman runs``, an operator's occasional look: no index of its own."""
        query: dict[str, object] = {}
        if chat_id is not None:
            query["chat_id"] = chat_id
        if since is not None:
            query["created_at"] = {"$gte": since}
        with translate_errors("listing recent runs"):
            return await ScenarioRunDocument.find(query).sort("-created_at").limit(limit).to_list()

    async def mark_reply(
        self,
        short_id: str,
        seq: int,
        *,
        was: ReplyState,
        now: ReplyState,
        message_id: int | None,
        sender: str | None = None,
    ) -> bool:
        """A field update, not a ``replace``: the run's revision stays, so a save of the
        run in flight elsewhere is not refused for it (it may write back the state it
        read; senders only look at replies still ``OWED``, never resending after that)."""
        change: dict[str, object] = {"reply.state": now.value, "reply.changed_at": utcnow()}
        if message_id is not None:
            change["reply.message_id"] = message_id
        if sender is not None:
            change["reply.sender"] = sender
        with translate_errors(f"marking the reply of run {short_id}"):
            written = await ScenarioRunDocument.get_pymongo_collection().update_one(
                {"short_id": short_id, "reply.seq": seq, "reply.state": was.value},
                {"$set": change},
            )
        return written.modified_count == 1

    async def owing_replies(self) -> list[ScenarioRunDocument]:
        with translate_errors("listing runs owing a reply"):
            return await ScenarioRunDocument.find({"reply.state": ReplyState.OWED.value}).to_list()

    async def attempted_replies(self) -> list[ScenarioRunDocument]:
        with translate_errors("listing runs whose reply is going out"):
            return await ScenarioRunDocument.find(
                {"reply.state": ReplyState.ATTEMPTED.value}
            ).to_list()

    async def note_progress_message(self, short_id: str, message_id: int) -> bool:
        """A field update like ``mark_reply``'s; the core sets the field on the run it
        holds too, so its next save keeps it."""
        with translate_errors(f"noting the progress message of run {short_id}"):
            written = await ScenarioRunDocument.get_pymongo_collection().update_one(
                {"short_id": short_id, "progress_message": {"$ne": message_id}},
                {"$set": {"progress_message": message_id}},
            )
        return written.modified_count == 1
