"""Following a run from storage until it settles, reporting its steps as progress.

Storage, not this process's tasks, is watched: after a restart the run may be going on
in the runner resumed here, or in another process (the bot, once answered in Telegram).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from core.agent.outcome import RunOutcome, RunState
from core.errors import AgentError
from core.output import StepState
from core.runner import ScenarioRunner
from core.store import RunStatus, RunStore, ScenarioRun

__all__ = ["ProgressFn", "RunWatch", "outcome_of"]

ProgressFn = Callable[[float, float, str], Awaitable[None]]


_STATES: dict[RunStatus, RunState] = {
    RunStatus.COLLECTING: "waiting",  # both wait on the user's answer, in Telegram
    RunStatus.WAITING: "waiting",
    RunStatus.RUNNING: "running",
    RunStatus.DONE: "done",
    RunStatus.FAILED: "failed",
    RunStatus.CANCELLED: "cancelled",
    RunStatus.EXPIRED: "expired",
}


def outcome_of(run: ScenarioRun) -> RunOutcome:
    return RunOutcome(
        run_id=run.short_id,
        state=_STATES[run.status],
        summary=run.summary,
        error=run.error,
        question=run.question.text if run.question else None,
        steps_done=sorted(run.done_steps()),
    )


class RunWatch:
    def __init__(self, runs: RunStore, runner: ScenarioRunner, *, every: float = 0.3) -> None:
        self._runs = runs
        self._runner = runner
        self._every = every

    async def settle(
        self, run_id: str, *, timeout: float, progress: ProgressFn | None = None
    ) -> RunOutcome:
        """The run once it is done, failed, ended or waits on a question; as it is after
        ``timeout`` seconds if still running (the caller may ask again by its id)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        reported = -1
        while True:
            run = await self._runs.get(run_id)
            if run is None:
                raise AgentError(f"no run {run_id}")
            shown = self._runner.progress(run)
            done = sum(step.state is StepState.DONE for step in shown.steps)
            if progress is not None and done != reported:
                reported = done
                following = next(
                    (s.label for s in shown.steps if s.state is not StepState.DONE), shown.title
                )
                await progress(done, len(shown.steps), following)
            if _settled(run) or loop.time() >= deadline:
                return outcome_of(run)
            await asyncio.sleep(self._every)


def _settled(run: ScenarioRun) -> bool:
    """Done, ended, or waiting on a question. A run saved and not yet started (a confirm
    that caught it between its creation and its first step or question) is neither
    running nor waiting on anyone: it is followed on, not reported as «waiting»."""
    if run.status is RunStatus.RUNNING:
        return False
    return not (run.status.active and run.question is None)
