"""Whether a run's step may have acted on the site (sent what changes it) before now.

A step that changes the site looks first for what an earlier try of it did (a booking
carrying the run's mark), so that a run resumed after a crash, an answer or a retry does
not do it twice. That look costs a page of the site. A step marks its run, durably,
before it sends anything (``begin``); a run without the mark has sent nothing, so its
steps may skip the look.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from core.store import ScenarioRun

__all__ = ["Acting", "MayHaveActed", "RunActing"]


class Acting(Protocol):
    def may_have(self, step: str) -> bool:
        """Whether ``step`` may have sent something to the site already."""
        ...

    async def begin(self, step: str) -> bool:
        """Mark, durably, that ``step`` is about to send; whether it may have before."""
        ...


class MayHaveActed:
    """Without a run's record (a step called on its own): any step may have acted."""

    def may_have(self, step: str) -> bool:
        return True

    async def begin(self, step: str) -> bool:
        return True


class RunActing:
    """The run's own record (``ScenarioRun.acted``), saved by ``save`` when it grows."""

    def __init__(self, run: ScenarioRun, save: Callable[[], Awaitable[None]]) -> None:
        self._run = run
        self._save = save

    def may_have(self, step: str) -> bool:
        acted = self._run.acted
        return acted is None or step in acted

    async def begin(self, step: str) -> bool:
        if self.may_have(step):
            return True
        assert self._run.acted is not None  # may_have says so
        self._run.acted.append(step)
        await self._save()  # before anything is sent: a crash after it resumes looking
        return False
