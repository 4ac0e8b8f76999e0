"""What the core hands to views. Any view (Telegram, terminal) renders these.

Outputs are delivered to an ``OutputSink`` as they happen (scenario runs go on in
the background), always for one chat.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from enum import StrEnum
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from core.commands import Lang

__all__ = [
    "AnswerOutcome",
    "Done",
    "Failed",
    "Option",
    "Output",
    "OutputSink",
    "Progress",
    "Question",
    "Receipt",
    "Reply",
    "RunView",
    "StepState",
    "StepView",
    "receipted",
]


class Option(BaseModel):
    """A choice offered with a question; ``id`` is stable and short (callback data)."""

    id: str = Field(max_length=24)
    label: str


class Reply(BaseModel):
    kind: Literal["reply"] = "reply"
    chat_id: int
    text: str
    run_id: str | None = None
    lang: Lang = "ru"
    in_place_of: int | None = None  # see ``Done``


class Question(BaseModel):
    """One question with options; the view adds «Другое…» when free text is allowed and «Отмена»."""

    kind: Literal["question"] = "question"
    chat_id: int
    run_id: str
    seq: int = 0  # the question's number within its run (goes into callback data)
    key: str
    text: str
    options: list[Option] = Field(default_factory=list)
    allow_free_text: bool = True
    lang: Lang = "ru"
    in_place_of: int | None = None  # see ``Done``


class StepState(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class StepView(BaseModel):
    name: str
    label: str
    state: StepState


class Progress(BaseModel):
    """The current state of a run's steps; views edit one message in place."""

    kind: Literal["progress"] = "progress"
    chat_id: int
    run_id: str
    title: str
    steps: list[StepView]
    queued: bool = False  # waiting for a free browser
    lang: Lang = "ru"


class Done(BaseModel):
    kind: Literal["done"] = "done"
    chat_id: int
    run_id: str
    text: str
    lang: Lang = "ru"
    calendar: bool = False  # the view offers the run's bookings as an .ics file
    # Show it by editing this message of the chat instead of sending it: a reply whose
    # sending ended unknown, shown where the run's progress was (core.replies).
    in_place_of: int | None = None


class Failed(BaseModel):
    kind: Literal["failed"] = "failed"
    chat_id: int
    run_id: str
    text: str
    screenshot: bytes | None = None
    lang: Lang = "ru"
    in_place_of: int | None = None  # see ``Done``


Output = Reply | Question | Progress | Done | Failed


class Receipt(Protocol):
    """Given with an output the user must receive (``core.replies``). The view calls
    ``attempting`` right before the message leaves, and sends it only if that returns
    True; then ``sent`` once the messenger has taken it. Given with a ``Progress``, it
    asks nothing (``attempting`` is True) and ``sent`` is told the message showing it."""

    async def attempting(self) -> bool: ...

    async def sent(self, message_id: int | None) -> None: ...


class OutputSink(Protocol):
    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None: ...


@asynccontextmanager
async def receipted(receipt: Receipt | None) -> AsyncIterator[bool]:
    """For a view that shows an output at once: yields whether to show it (False: another
    sender has it), and records it shown after the block."""
    show = receipt is None or await receipt.attempting()
    yield show
    if show and receipt is not None:
        await receipt.sent(None)


class AnswerOutcome(BaseModel):
    """What became of an answer: the view shows ``note`` (e.g. as a callback answer)."""

    accepted: bool
    label: str | None = None  # the chosen option's label, to show in place of the keyboard
    note: str = ""
    not_yours: bool = False  # another member's question: it keeps its buttons for them


class RunView(BaseModel):
    """A chat's run as shown by /status."""

    run_id: str
    scenario: str
    status: str
    title: str
    steps: list[StepView]
    question: str | None = None
    requester: str | None = None  # who asked, shown in group chats
