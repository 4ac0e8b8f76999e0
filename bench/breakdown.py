"""Where an update's time goes in the full stack: wall time per middleware (its own part,
without what runs inside it) and per core and storage call, per update.

Times are wall clock on a loaded event loop, so they include waiting for the loop (and
for SecantusDB and redis-server) and overlap between concurrent chats; they say which
parts dominate, not what each costs alone. Used by ``python -m bench.bot --breakdown``;
the wrapping is the bench's own and touches no product code.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.middlewares import (
    AccessMiddleware,
    ChatOrderMiddleware,
    ContextMiddleware,
    LanguageMiddleware,
    UpdateOnceMiddleware,
)
from bot.sink import TelegramSink
from core.dispatcher import ChatDispatcher
from core.events import EventBus
from core.planner import ProxyPlanner
from core.turns import ChatTurns
from core.views import RecordingSink
from storage.kv import ClaimOnce
from storage.runs import RunRepository
from storage.users import UserRepository

__all__ = ["Breakdown"]

MIDDLEWARES = (
    ContextMiddleware, AccessMiddleware, ChatOrderMiddleware, UpdateOnceMiddleware,
    LanguageMiddleware,
)  # fmt: skip
CALLS: tuple[tuple[type, str], ...] = (
    (ChatDispatcher, "handle"),
    (ChatDispatcher, "_user"),
    (ChatDispatcher, "_waiting_run"),
    (ChatDispatcher, "_received"),
    (ChatDispatcher, "_decide"),
    (ChatDispatcher, "_start"),
    (ChatDispatcher, "_reply"),
    (ProxyPlanner, "choose"),
    (EventBus, "publish"),
    (RecordingSink, "deliver"),
    (TelegramSink, "deliver"),
    (ClaimOnce, "claim"),
    (UserRepository, "profile"),
    (UserRepository, "learn_language"),
    (RunRepository, "active_for_chat"),
)
TURNS = (ChatTurns, "turn")  # an async context manager: its entry is timed


@dataclass
class Breakdown:
    totals: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def _note(self, name: str, seconds: float) -> None:
        self.totals[name] += seconds
        self.calls[name] += 1

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Every timed class patched while the block runs, restored after it."""
        saved: list[tuple[type, str, Any]] = []

        def patch(owner: type, name: str, wrapper: Callable[[Any], Any]) -> None:
            original = owner.__dict__[name]
            saved.append((owner, name, original))
            setattr(owner, name, wrapper(original))

        for middleware in MIDDLEWARES:
            own_part = partial(self._own_part, f"middleware {middleware.__name__}")
            patch(middleware, "__call__", own_part)
        for owner, name in CALLS:
            patch(owner, name, partial(self._timed, f"{owner.__name__}.{name}"))
        patch(*TURNS, partial(self._entered, "ChatTurns.turn (entering)"))
        try:
            yield
        finally:
            for owner, name, original in reversed(saved):
                setattr(owner, name, original)

    def _own_part(self, name: str, call: Any) -> Any:
        async def timed(middleware: Any, handler: Any, event: Any, data: Any) -> Any:
            inside = 0.0

            async def inner(event: Any, data: Any) -> Any:
                nonlocal inside
                started = time.perf_counter()
                try:
                    return await handler(event, data)
                finally:
                    inside += time.perf_counter() - started

            started = time.perf_counter()
            try:
                return await call(middleware, inner, event, data)
            finally:
                self._note(name, time.perf_counter() - started - inside)

        return timed

    def _timed(self, name: str, call: Any) -> Any:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            finally:
                self._note(name, time.perf_counter() - started)

        return timed

    def _entered(self, name: str, turn: Any) -> Any:
        @asynccontextmanager
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            async with turn(*args, **kwargs) as value:
                self._note(name, time.perf_counter() - started)
                yield value

        return timed

    def lines(self, updates: int) -> list[str]:
        """One line per part, the most time first: ms per update and calls per update."""
        ordered = sorted(self.totals.items(), key=lambda item: -item[1])
        return [
            f"  {name:<40} {total / updates * 1000:7.2f} ms/update  "
            f"{self.calls[name] / updates:5.2f} calls/update"
            for name, total in ordered
        ]
