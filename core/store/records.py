"""What the core keeps in storage, as plain pydantic records (no driver types).

``storage`` makes its Beanie documents subclasses of these (``class
ScenarioRunDocument(Document, ScenarioRun)``): what it loads *is* a record, so the core
reads and changes it with no copy, and the store's ``save`` writes it back as is.
A record the core builds itself (a new run) becomes stored through the
store's ``create``, which returns the stored one: later saves must be given that.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ACTIVE_STATUSES",
    "ClickRole",
    "ClickTarget",
    "ConversationMessage",
    "Direction",
    "Event",
    "OptionRecord",
    "OwedReply",
    "PendingQuestion",
    "RunStatus",
    "ScenarioRun",
    "ReplyKind",
    "ReplyState",
    "StepRecord",
    "StepStatus",
    "User",
    "UserProfile",
    "new_short_id",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_short_id() -> str:
    # 10 url-safe chars: short enough for 64-byte callback data, 60 bits of randomness.
    return secrets.token_urlsafe(8)[:10]


# --- users --------------------------------------------------------------------------


class User(BaseModel):
    telegram_id: int
    name: str = ""
    language: str = "ru"  # chosen in /settings, else the one they last wrote in
    language_chosen: bool = False  # chosen in /settings: what they write no longer changes it
    language_learned: bool = False  # they wrote in it (else their client's language leads)
    timezone: str | None = None
    reminders: bool = False  # «напоминать за 1 час» in /settings
    role: str = "manager"
    portal_username: str | None = None
    # Fernet token; the key lives in settings, never next to the data.
    portal_password_encrypted: bytes | None = None
    # Playwright storage state (cookies) of the last portal session, encrypted likewise.
    portal_session_encrypted: bytes | None = None
    created_at: datetime = Field(default_factory=utcnow)


class UserProfile(BaseModel):
    """What every message needs to know of its user; no credentials or sessions."""

    telegram_id: int
    name: str
    language: str
    language_chosen: bool = False
    language_learned: bool = False
    timezone: str | None
    role: str


# --- the conversation and the event journal ------------------------------------------


class Direction(StrEnum):
    IN = "in"
    OUT = "out"


class ConversationMessage(BaseModel):
    chat_id: int
    user_id: int | None = None
    direction: Direction
    text: str
    run_id: str | None = None
    at: datetime = Field(default_factory=utcnow)


class Event(BaseModel):
    kind: str
    chat_id: int | None = None
    run_id: str | None = None
    at: datetime = Field(default_factory=utcnow)
    data: dict[str, Any] = Field(default_factory=dict)


# --- scenario runs ------------------------------------------------------------------


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

    @property
    def duration_ms(self) -> float:
        return round((self.finished_at - self.started_at).total_seconds() * 1000, 1)


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


class ReplyKind(StrEnum):
    QUESTION = "question"
    DONE = "done"
    FAILED = "failed"
    ENDED = "ended"  # cancelled or expired: what became of it


class ReplyState(StrEnum):
    OWED = "owed"  # stored with the run's state change; not handed to the messenger yet
    ATTEMPTED = "attempted"  # handed over, outcome not recorded: it may have arrived
    SENT = "sent"
    WITHDRAWN = "withdrawn"  # a question answered or dropped before it went out
    # Its sender died while it was ATTEMPTED (core.replies): shown by editing the run's
    # progress message (``message_id``) instead, which notifies nobody …
    SHOWN = "shown"
    # … or, with no progress message to edit (or a question no longer waited on), left
    # as it is: it may have arrived.
    UNCONFIRMED = "unconfirmed"


class OwedReply(BaseModel):
    """What the run owes the user now (its question or its final answer), written in the
    same save as the state change that made it owed (the transactional outbox)."""

    seq: int  # one more than the run's previous reply: marks name the reply they mean
    kind: ReplyKind
    text: str
    calendar: bool = False  # a final answer that offers its bookings as a calendar file
    state: ReplyState = ReplyState.OWED
    message_id: int | None = None
    sender: str | None = None  # the process (``Locks.holder``) that moved it to ATTEMPTED
    changed_at: datetime = Field(default_factory=utcnow)


class ScenarioRun(BaseModel):
    """A run's durable state: checkpointed after every step, resumed after a restart."""

    short_id: str = Field(default_factory=new_short_id)
    chat_id: int
    user_id: int
    admin: bool = False  # asked by an administrator: its steps may act on anyone's bookings
    scenario: str
    lang: str = "ru"
    timezone: str = "Europe/Moscow"
    command_text: str = ""
    status: RunStatus = RunStatus.COLLECTING
    slots: dict[str, Any] = Field(default_factory=dict)
    steps: list[StepRecord] = Field(default_factory=list)
    # Answers given to step questions, by question key: a resumed step reads them.
    answers: dict[str, str] = Field(default_factory=dict)
    # The steps that began sending changes to the site (``core.acting``); None for a run
    # saved before this was kept, whose every step may have.
    acted: list[str] | None = None
    question: PendingQuestion | None = None
    questions_asked: int = 0
    summary: str | None = None
    error: str | None = None
    failure_screenshot: bytes | None = None  # PNG of the page when a step failed
    reply: OwedReply | None = None
    # The message showing the run's progress in its chat, reported by the view: where a
    # reply whose sending ended unknown is shown by an edit (core.replies).
    progress_message: int | None = None
    # The process executing the run (``Locks.holder``): another process starting beside it
    # (the MCP server beside the bot) leaves the run to it while it lives.
    runner: str | None = None
    schedule_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime | None = None

    def done_steps(self) -> set[str]:
        return {step.name for step in self.steps if step.status is StepStatus.DONE}


# --- the brain's memory -------------------------------------------------------------

ClickRole = Literal["button", "link", "checkbox"]


class ClickTarget(BaseModel):
    """A button or link to press, or a checkbox (by its label) to tick."""

    model_config = ConfigDict(frozen=True)

    role: ClickRole
    name: str = Field(min_length=1, max_length=200)
