"""Typed events for every step of a command's life, and the bus that fans them out.

Sinks: the ``Event`` collection (so a run can be replayed as a timeline) and structlog.
More subscribers (metrics) can be added with ``EventBus.subscribe``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Literal, Protocol

import structlog
from pydantic import BaseModel

from core.errors import ClubError

__all__ = [
    "AnswerReceived",
    "AnswerRejected",
    "BaseEvent",
    "CommandReceived",
    "ContextAcquired",
    "EventBus",
    "EventStore",
    "NoScenario",
    "PortalRetried",
    "QuestionAsked",
    "RunFinished",
    "RunResumed",
    "ScenarioChosen",
    "SlotMissing",
    "StepFailed",
    "StepStarted",
    "StepSucceeded",
    "Subscriber",
]

log = structlog.get_logger("clubman.events")


class BaseEvent(BaseModel):
    kind: ClassVar[str]
    stored: ClassVar[bool] = True  # written to the event store, not only published
    chat_id: int | None = None
    run_id: str | None = None

    def data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"chat_id", "run_id"})


class CommandReceived(BaseEvent):
    kind = "command.received"
    stored = False  # the conversation row is its record, field for field
    user_id: int
    text: str


class ScenarioChosen(BaseEvent):
    kind = "scenario.chosen"
    scenario: str
    intent: str
    score: float
    via: Literal["rules", "classifier"] = "rules"


class NoScenario(BaseEvent):
    kind = "scenario.none"
    intent: str


class SlotMissing(BaseEvent):
    kind = "slot.missing"
    slot: str


class QuestionAsked(BaseEvent):
    kind = "question.asked"
    key: str
    text: str
    options: list[str]


class AnswerReceived(BaseEvent):
    kind = "answer.received"
    key: str
    value: str  # what the run keeps: an option's id, or the parsed slot value
    via: Literal["button", "text"]
    label: str = ""  # what the user saw and chose (a button's label, or their text)


class AnswerRejected(BaseEvent):
    kind = "answer.rejected"
    key: str
    reason: str


class StepStarted(BaseEvent):
    kind = "step.started"
    step: str


class StepSucceeded(BaseEvent):
    kind = "step.succeeded"
    step: str
    result: dict[str, Any]
    duration_ms: float = 0.0  # on the core's clock, as the step's record


class StepFailed(BaseEvent):
    kind = "step.failed"
    step: str
    error: str
    error_kind: str = ""  # the error's class ("crashed" for one that is not ours)
    for_admins: str = ""  # where it broke (the site profile's line, what was tried)
    portal: bool = False  # the booking site failed or refused (a ``PortalError``)
    duration_ms: float = 0.0


class PortalRetried(BaseEvent):
    """A transient portal failure (a 5xx page, a timeout) about to be tried again."""

    kind = "portal.retried"
    action: str
    attempt: int
    reason: str


class ContextAcquired(BaseEvent):
    """A run got its browser context; ``wait_ms`` is the time queued for a free one."""

    kind = "browser.context"
    wait_ms: float
    queued: bool


class RunResumed(BaseEvent):
    kind = "run.resumed"
    next_step: str | None


class RunFinished(BaseEvent):
    kind = "run.finished"
    status: str
    scenario: str = ""
    summary: str | None = None


Subscriber = Callable[[BaseEvent], Awaitable[None]]


class EventStore(Protocol):
    """Where events are persisted; the storage layer's event repository fits."""

    async def append(
        self, kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
    ) -> object: ...


class EventBus:
    def __init__(self, store: EventStore | None = None) -> None:
        self._store = store
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    async def publish(self, event: BaseEvent) -> None:
        store = self._store if event.stored else None
        # Dumped only for a reader: most events are neither stored nor logged at INFO.
        if store is not None or log.is_enabled_for(logging.INFO):
            data = event.data()
            log.info(event.kind, chat_id=event.chat_id, run_id=event.run_id, **data)
            if store is not None:
                try:
                    await store.append(
                        event.kind, chat_id=event.chat_id, run_id=event.run_id, data=data
                    )
                except ClubError:
                    # Losing an audit record must not lose the user's work.
                    log.exception("event.store_failed", event_kind=event.kind)
        for subscriber in self._subscribers:
            await subscriber(event)
