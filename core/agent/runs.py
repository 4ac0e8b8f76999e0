"""Starting and following the runs an agent tool's confirmed call asks for, whatever the job.

Runs it starts belong to the user's private chat (a Telegram private chat's id is the
user's id), so they show in the user's /status, and their answers and questions are the
chat's owed replies (``core.replies``), sent to Telegram like any other.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import structlog
from pydantic import BaseModel, Field

from core.agent.confirm import Confirmations
from core.agent.outcome import RunOutcome
from core.agent.watch import ProgressFn, RunWatch, outcome_of
from core.clock import Clock
from core.commands import Lang, as_lang
from core.dispatcher import ChatDispatcher
from core.errors import AgentError
from core.store import ConfirmationRecord, RunStore, UserStore

__all__ = ["AgentRuns", "RunRequest"]

log = structlog.get_logger("clubman.agent")


class RunRequest(BaseModel):
    """A scenario run to start as it is: its slots filled, its questions answered."""

    scenario: str
    slots: dict[str, Any]
    answers: dict[str, str] = Field(default_factory=dict)


class AgentRuns:
    """The engine's side of the agent API: who the caller is (language, time zone), the
    confirm tokens of two-step changes, and the runs confirmed calls start, each started
    once however often it is confirmed."""

    def __init__(
        self,
        *,
        manager: ChatDispatcher,
        runs: RunStore,
        users: UserStore,
        confirmations: Confirmations,
        clock: Clock,
        default_timezone: str,
        run_wait: timedelta = timedelta(minutes=5),
    ) -> None:
        self._manager = manager
        self._runs = runs
        self._users = users
        self.confirmations = confirmations
        self.clock = clock
        self._default_tz = default_timezone
        self._run_wait = run_wait
        self._watch = RunWatch(runs, manager.runner)

    async def user(self, user_id: int) -> tuple[Lang, ZoneInfo]:
        user = await self._users.get_or_create(user_id)
        return as_lang(user.language), ZoneInfo(user.timezone or self._default_tz)

    async def status(self, user_id: int, run_id: str) -> RunOutcome:
        run = await self._runs.get(run_id)
        if run is None or run.user_id != user_id:  # another user's run reads as none
            raise AgentError(f"no run {run_id} of yours")
        return outcome_of(run)

    async def confirmed(
        self,
        record: ConfirmationRecord,
        request: RunRequest,
        progress: ProgressFn | None,
    ) -> RunOutcome:
        """Start the confirmed run unless it exists (a repeated confirmation, or one
        after a restart: the runner resumed it), then follow it."""
        if await self._runs.get(record.run_id) is None:
            if self.confirmations.expired(record):
                raise AgentError("this confirm token has expired", hint="ask for a new plan")
            lang, _ = await self.user(record.user_id)
            await self._manager.control.start_scenario(
                chat_id=record.user_id, user_id=record.user_id, scenario=request.scenario,
                slots=request.slots, answers=request.answers, lang=lang, run_id=record.run_id,
            )  # fmt: skip
            log.info("agent.run_started", run_id=record.run_id, scenario=request.scenario)
        return await self._watch.settle(
            record.run_id, timeout=self._run_wait.total_seconds(), progress=progress
        )
