"""User profiles read from MongoDB when the cache has none, many in one round trip.

A profile missing from the cache is read by an upsert that only inserts ($setOnInsert): a
new user's profile is what it inserted; an existing user's is read after it. (findAndModify
would return either in one, but on an existing user SecantusDB scans the whole collection:
12 ms at 2 000 users, measured.) The users whose first messages arrive together (a group
waking up, a burst after an outage) are loaded together: the reads asked for within one
event-loop iteration go as one bulk upsert and one ``$in`` read. On SecantusDB, fifty
first messages then cost ~25 ms of its time instead of ~75 ms.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pymongo import UpdateOne
from pymongo.errors import BulkWriteError

from core.errors import StorageError
from core.store.records import UserProfile
from storage.documents import UserDocument
from storage.errors import translate_errors

__all__ = ["ProfileLoader"]

_Waiting = dict[int, tuple[dict[str, Any], list[asyncio.Future[UserProfile]]]]
_DUPLICATE_KEY = 11000


class ProfileLoader:
    def __init__(self) -> None:
        self._waiting: _Waiting = {}
        self._loading: set[asyncio.Task[None]] = set()

    async def load(self, row: dict[str, Any]) -> UserProfile:
        """The stored profile of the user ``row`` (a new user's document) is of, the user
        inserted as ``row`` if new."""
        loop = asyncio.get_running_loop()
        if not self._waiting:
            loop.call_soon(self._send)
        loaded: asyncio.Future[UserProfile] = loop.create_future()
        self._waiting.setdefault(row["telegram_id"], (row, []))[1].append(loaded)
        return await loaded

    def _send(self) -> None:
        waiting, self._waiting = self._waiting, {}
        task = asyncio.create_task(self._load(waiting))
        self._loading.add(task)
        task.add_done_callback(self._loading.discard)

    async def _load(self, waiting: _Waiting) -> None:
        try:
            profiles = await _upsert_all([row for row, _ in waiting.values()])
        except asyncio.CancelledError:
            for _, futures in waiting.values():
                for future in futures:
                    future.cancel()
            raise
        except Exception as exc:  # StorageError, or a bug: every caller hears of it
            for _, futures in waiting.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(exc)
            return
        for telegram_id, (_, futures) in waiting.items():
            for future in futures:
                if not future.done():  # its caller may have been cancelled meanwhile
                    future.set_result(profiles[telegram_id])


async def _upsert_all(rows: list[dict[str, Any]]) -> dict[int, UserProfile]:
    collection = UserDocument.get_pymongo_collection()
    inserts = [
        UpdateOne({"telegram_id": row["telegram_id"]}, {"$setOnInsert": row}, upsert=True)
        for row in rows
    ]
    with translate_errors(f"loading {len(rows)} users"):
        try:
            written = await collection.bulk_write(inserts, ordered=False)
            created = set(written.upserted_ids or {})
        except BulkWriteError as exc:
            # Another first message of the same user (another process) inserted it first.
            if any(e.get("code") != _DUPLICATE_KEY for e in exc.details.get("writeErrors", [])):
                raise
            created = {u["index"] for u in exc.details.get("upserted", [])}
        profiles = {rows[i]["telegram_id"]: UserProfile.model_validate(rows[i]) for i in created}
        existing = [row["telegram_id"] for row in rows if row["telegram_id"] not in profiles]
        if existing:
            found = collection.find(
                {"telegram_id": {"$in": existing}},
                projection=dict.fromkeys(UserProfile.model_fields, 1),
            )
            async for document in found:
                profiles[document["telegram_id"]] = UserProfile.model_validate(document)
    if missing := [i for i in existing if i not in profiles]:  # users are never deleted
        raise StorageError(f"users {missing} were neither inserted nor found")
    return profiles
