"""Beanie documents. Relations are plain ids (no ``Link``): joins are done in code,
because SecantusDB's ``fetch_links`` returns nothing and MongoDB must behave the same."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

import pymongo
from beanie import Document
from pydantic import BaseModel, Field
from pymongo import IndexModel

from storage.brain_memory import BrainMemoryEntry

__all__ = [
    "ACTIVE_STATUSES",
    "ALL_DOCUMENTS",
    "ConversationMessage",
    "Direction",
    "Event",
    "OptionRecord",
    "PendingQuestion",
    "Preference",
    "RunStatus",
    "Schedule",
    "ScheduleFiring",
    "ScheduleStatus",
    "ScenarioRun",
    "StepRecord",
    "StepStatus",
    "User",
    "new_short_id",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_short_id() -> str:
    # 10 url-safe chars: short enough for 64-byte callback data, 60 bits of randomness.
    return secrets.token_urlsafe(8)[:10]


class User(Document):
    telegram_id: int
    name: str = ""
    language: str = "ru"
    timezone: str | None = None
    role: str = "manager"
    portal_username: str | None = None
    # Fernet token; the key lives in settings, never next to the data.
    portal_password_encrypted: bytes | None = None
    # Playwright storage state (cookies) of the last portal session, encrypted likewise.
    portal_session_encrypted: bytes | None = None
    created_at: datetime = Field(default_factory=utcnow)

    class Settings:
        name = "users"
        indexes = [IndexModel([("telegram_id", pymongo.ASCENDING)], unique=True)]


class Direction(StrEnum):
    IN = "in"
    OUT = "out"


class ConversationMessage(Document):
    chat_id: int
    user_id: int | None = None
    direction: Direction
    text: str
    run_id: str | None = None
    at: datetime = Field(default_factory=utcnow)

    class Settings:
        name = "conversation_messages"
        indexes = [IndexModel([("chat_id", pymongo.ASCENDING), ("at", pymongo.ASCENDING)])]


class RunStatus(StrEnum):
    COLLECTING = "collecting"  # asking for missing slots
    WAITING = "waiting"  # a step paused on a question
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"

    @property
    def active(self) -> bool:
        return self in (RunStatus.COLLECTING, RunStatus.WAITING, RunStatus.RUNNING)

    @property
    def awaiting_answer(self) -> bool:
        return self in (RunStatus.COLLECTING, RunStatus.WAITING)


ACTIVE_STATUSES = [RunStatus.COLLECTING, RunStatus.WAITING, RunStatus.RUNNING]


class StepStatus(StrEnum):
    DONE = "done"
    FAILED = "failed"


class StepRecord(BaseModel):
    name: str
    status: StepStatus
    result: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    started_at: datetime
    finished_at: datetime


class OptionRecord(BaseModel):
    id: str
    label: str


class PendingQuestion(BaseModel):
    seq: int = 0  # numbers the run's questions, so a tap on an old one is recognised
    key: str  # the slot name, or the step's question key
    text: str
    options: list[OptionRecord] = Field(default_factory=list)
    allow_free_text: bool = True
    asked_at: datetime = Field(default_factory=utcnow)


class ScenarioRun(Document):
    short_id: str = Field(default_factory=new_short_id)
    chat_id: int
    user_id: int
    scenario: str
    lang: str = "ru"
    timezone: str = "Europe/Moscow"
    command_text: str = ""
    status: RunStatus = RunStatus.COLLECTING
    slots: dict[str, Any] = Field(default_factory=dict)
    steps: list[StepRecord] = Field(default_factory=list)
    # Answers given to step questions, by question key: a resumed step reads them.
    answers: dict[str, str] = Field(default_factory=dict)
    question: PendingQuestion | None = None
    questions_asked: int = 0
    summary: str | None = None
    error: str | None = None
    failure_screenshot: bytes | None = None  # PNG of the page when a step failed
    schedule_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime | None = None

    class Settings:
        name = "scenario_runs"
        use_revision = True
        indexes = [
            IndexModel([("short_id", pymongo.ASCENDING)], unique=True),
            IndexModel([("chat_id", pymongo.ASCENDING), ("status", pymongo.ASCENDING)]),
            IndexModel([("status", pymongo.ASCENDING), ("expires_at", pymongo.ASCENDING)]),
        ]

    def done_steps(self) -> set[str]:
        return {step.name for step in self.steps if step.status is StepStatus.DONE}


class Event(Document):
    kind: str
    chat_id: int | None = None
    run_id: str | None = None
    at: datetime = Field(default_factory=utcnow)
    data: dict[str, Any] = Field(default_factory=dict)

    class Settings:
        name = "events"
        # Only a run's timeline is looked up. Most events belong to no run and are
        # stored without ``run_id`` (records.event_row), so this sparse index skips
        # them: on SecantusDB an index entry costs about as much as the document.
        indexes = [IndexModel([("run_id", pymongo.ASCENDING)], sparse=True)]


class ScheduleStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    DELETED = "deleted"


class ScheduleFiring(BaseModel):
    target_date: date
    run_id: str | None = None
    status: str
    at: datetime = Field(default_factory=utcnow)


class Schedule(Document):
    owner_id: int
    chat_id: int
    slots: dict[str, Any] = Field(default_factory=dict)
    weekdays: list[str]
    timezone: str
    status: ScheduleStatus = ScheduleStatus.ACTIVE
    history: list[ScheduleFiring] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)

    class Settings:
        name = "schedules"
        use_revision = True
        indexes = [
            IndexModel([("owner_id", pymongo.ASCENDING), ("status", pymongo.ASCENDING)]),
            IndexModel([("status", pymongo.ASCENDING)]),
        ]


class Preference(Document):
    """A learned fact about a user, e.g. key="building", value="chaikovsky", chosen 5 times."""

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
    User,
    ConversationMessage,
    ScenarioRun,
    Event,
    Schedule,
    Preference,
    BrainMemoryEntry,
]
