"""What the core needs of the storage layer: one Protocol per repository and the
``Store`` that holds them. ``storage`` implements them on MongoDB and Redis; the core
types against these only, so it never imports ``storage``.

Listings are ``Sequence``s, so a store may give its own subclasses of the records.
Records given back by a store are its own (``records`` explains): ``save`` takes a
record the store returned, from ``create``, ``get`` or a listing. Failures are the
``core.errors.StorageError`` family, ``ConcurrencyError`` when a record changed since
it was read.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from core.store.records import (
    ConversationMessage,
    Direction,
    Event,
    ReplyState,
    RunStatus,
    ScenarioRun,
    User,
    UserProfile,
)

__all__ = [
    "Claims",
    "ConversationLog",
    "EventLog",
    "Locks",
    "OpenStore",
    "RunStore",
    "Store",
    "UserStore",
]


class RunStore(Protocol):
    def pin_chat(self, chat_id: int) -> None:
        """This process alone acts in the chat until ``unpin_chat`` (core.turns)."""

    def unpin_chat(self, chat_id: int) -> None: ...

    async def create(self, run: ScenarioRun) -> ScenarioRun:
        """Store a new run; returns the stored run, the one to change and ``save``."""

    async def get(self, short_id: str) -> ScenarioRun | None: ...

    async def save(self, run: ScenarioRun) -> ScenarioRun:
        """Write the whole run; ``ConcurrencyError`` if it changed since it was read."""

    async def active_for_chat(self, chat_id: int) -> Sequence[ScenarioRun]: ...

    async def with_status(self, status: RunStatus) -> Sequence[ScenarioRun]: ...

    async def expired(self, now: datetime) -> Sequence[ScenarioRun]:
        """Runs waiting for an answer whose time ran out."""

    async def recent_for_chat(self, chat_id: int, *, limit: int = 10) -> Sequence[ScenarioRun]: ...

    async def recent(
        self, *, chat_id: int | None = None, since: datetime | None = None, limit: int = 50
    ) -> Sequence[ScenarioRun]:
        """The newest runs first, of one chat or all, created at ``since`` or later."""

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
        """Move the run's reply ``seq`` from state ``was`` to ``now`` in one atomic write
        (the run's revision untouched), recording ``message_id`` and ``sender`` when given;
        False if it is not in state ``was`` (another sender took it, or a newer reply
        replaced it)."""

    async def owing_replies(self) -> Sequence[ScenarioRun]:
        """Runs whose reply is still ``OWED``."""

    async def attempted_replies(self) -> Sequence[ScenarioRun]:
        """Runs whose reply is ``ATTEMPTED``: going out now, or its sender died."""

    async def note_progress_message(self, short_id: str, message_id: int) -> bool:
        """Record the message showing the run's progress, in one atomic write (the run's
        revision untouched); False if there is no such run or it names that message already."""


class UserStore(Protocol):
    def pin(self, telegram_id: int) -> None:
        """Keep the user's profile in memory while this process holds their chat."""

    def unpin(self, telegram_id: int) -> None: ...

    async def profile(
        self, telegram_id: int, *, name: str = "", language: str = "ru", learned: bool = False
    ) -> UserProfile:
        """The user's profile, creating the user on their first message (in ``language``;
        ``learned``: the one they wrote it in)."""

    async def learn_language(
        self, known: UserProfile, language: str, *, chosen: bool = False
    ) -> UserProfile:
        """Keep ``language`` for the user whose profile ``known`` is; the profile after."""

    async def get(self, telegram_id: int) -> User | None: ...

    async def get_or_create(
        self, telegram_id: int, *, name: str = "", language: str = "ru"
    ) -> User: ...

    async def save(self, user: User) -> User: ...


class ConversationLog(Protocol):
    """Messages in and out; appends may be written a moment later, reads see them."""

    async def append(
        self,
        *,
        chat_id: int,
        direction: Direction,
        text: str,
        user_id: int | None = None,
        run_id: str | None = None,
    ) -> None: ...

    async def flush(self) -> None: ...

    async def history(self, chat_id: int, *, limit: int = 50) -> Sequence[ConversationMessage]:
        """The last ``limit`` messages, oldest first."""

    async def between(
        self, chat_id: int, *, since: datetime, until: datetime
    ) -> Sequence[ConversationMessage]:
        """The chat's messages stored in [``since``, ``until``], oldest first."""


class EventLog(Protocol):
    """The event journal (``core.events.EventBus`` appends); written like the log above."""

    async def append(
        self, kind: str, *, chat_id: int | None, run_id: str | None, data: dict[str, Any]
    ) -> None: ...

    async def flush(self) -> None: ...

    async def for_run(self, run_id: str) -> Sequence[Event]: ...


class Locks(Protocol):
    """Mutual exclusion per key across processes; a lock lapses after its ``ttl``, and
    one whose holder process is dead is taken over at once."""

    @property
    def holder(self) -> str:
        """This process's identity, which every lock it holds carries."""

    async def acquire(self, key: str, *, ttl: float = 60.0, wait: float = 120.0) -> str:
        """Take the lock, waiting up to ``wait`` seconds; returns the holder's token."""

    async def extend(self, key: str, token: str, *, ttl: float = 60.0) -> bool: ...

    async def release(self, key: str, token: str) -> None: ...

    async def alive(self, holder: str) -> bool:
        """Whether the process ``holder`` names (another's ``holder``) still runs: its
        heartbeat is fresh and, on this machine, its pid still runs it."""


class Claims(Protocol):
    async def claim(self, key: str, *, owner: str, ttl_seconds: int) -> bool:
        """True for the first caller until the claim expires (one process fires a job)."""


class Store(Protocol):
    """The repositories the core uses (``storage.Storage`` has these and more)."""

    @property
    def runs(self) -> RunStore: ...

    @property
    def users(self) -> UserStore: ...

    @property
    def conversations(self) -> ConversationLog: ...

    @property
    def events(self) -> EventLog: ...

    @property
    def locks(self) -> Locks: ...

    @property
    def claims(self) -> Claims: ...


class OpenStore(Protocol):
    """Opens storage (``storage.open_storage``); the doctor is given it to check it."""

    def __call__(
        self,
        *,
        mongodb_uri: str | None,
        redis_url: str | None,
        data_dir: Path,
        in_memory: bool = False,
    ) -> AbstractAsyncContextManager[Store]: ...
