"""Beanie documents: the core's records (``core.store.records``) made storable.

Each document subclasses its record, ``Document`` first so Beanie's ``id`` wins over a
record's opaque one: what the repositories load *is* the record the core works on, with
no copy. Relations are plain ids (no ``Link``): joins are done in code, because
SecantusDB's ``fetch_links`` returns nothing and MongoDB must behave the same.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar

import pymongo
from beanie import Document
from pydantic import Field
from pymongo import IndexModel

from core.store.records import ConversationMessage, Event, ScenarioRun, User, utcnow
from scenarios.booking.records import Schedule
from storage.access import AccessTokenDocument, ConfirmationDocument
from storage.brain_memory import BrainMemoryEntry
from storage.reminders import ReminderDocument

__all__ = [
    "ALL_DOCUMENTS",
    "ConversationMessageDocument",
    "EventDocument",
    "PreferenceDocument",
    "ScenarioRunDocument",
    "ScheduleDocument",
    "UserDocument",
    "stored",
]


class UserDocument(Document, User):
    class Settings:
        name = "users"
        indexes = [IndexModel([("telegram_id", pymongo.ASCENDING)], unique=True)]


class ConversationMessageDocument(Document, ConversationMessage):
    class Settings:
        name = "conversation_messages"
        indexes = [IndexModel([("chat_id", pymongo.ASCENDING), ("at", pymongo.ASCENDING)])]


class ScenarioRunDocument(Document, ScenarioRun):
    class Settings:
        name = "scenario_runs"
        use_revision = True
        indexes = [
            IndexModel([("short_id", pymongo.ASCENDING)], unique=True),
            IndexModel([("chat_id", pymongo.ASCENDING), ("status", pymongo.ASCENDING)]),
            IndexModel([("status", pymongo.ASCENDING), ("expires_at", pymongo.ASCENDING)]),
            # Replies still owed are looked for at start-up and every few seconds.
            IndexModel([("reply.state", pymongo.ASCENDING)], sparse=True),
        ]


class EventDocument(Document, Event):
    class Settings:
        name = "events"
        # Only a run's timeline is looked up. Most events belong to no run and are
        # stored without ``run_id`` (records.event_row), so this sparse index skips
        # them: on SecantusDB an index entry costs about as much as the document.
        indexes = [IndexModel([("run_id", pymongo.ASCENDING)], sparse=True)]


class ScheduleDocument(Document, Schedule):
    class Settings:
        name = "schedules"
        use_revision = True
        indexes = [
            IndexModel([("owner_id", pymongo.ASCENDING), ("status", pymongo.ASCENDING)]),
            IndexModel([("status", pymongo.ASCENDING)]),
        ]


class PreferenceDocument(Document):
    """A learned fact about a user, e.g. key="building", value="chaikovsky", chosen 5 times.

    Storage's own: the core sees only ranked values (``PreferenceRepository``)."""

    user_id: int
    key: str
    value: str
    uses: int = 1
    updated_at: datetime = Field(default_factory=utcnow)

    class Settings:
        name = "preferences"
        indexes = [
            IndexModel(
                [
                    ("user_id", pymongo.ASCENDING),
                    ("key", pymongo.ASCENDING),
                    ("value", pymongo.ASCENDING),
                ],
                unique=True,
            )
        ]


ALL_DOCUMENTS: list[type[Document]] = [
    UserDocument,
    ConversationMessageDocument,
    ScenarioRunDocument,
    EventDocument,
    ScheduleDocument,
    PreferenceDocument,
    BrainMemoryEntry,
    AccessTokenDocument,
    ConfirmationDocument,
    ReminderDocument,
]

_D = TypeVar("_D", bound=Document)


def stored(record: object, document: type[_D], what: str) -> _D:
    """``record`` as the document it must be: one this storage created or loaded.

    A record the core built itself has no id or revision to write against; it is
    stored with ``create`` first, and the record ``create`` returned is saved after.
    """
    if not isinstance(record, document):
        raise TypeError(f"{what} was not stored by this storage: save what create returned")
    return record
