"""The scenario runner: each run's steps as an asyncio task, checkpointed after every step.

A run document is the state. A step that finished is recorded before the next one
starts, so after a crash or restart ``resume_all`` continues from the first step
not done; a step that paused (``NeedsAnswer``) is run again once answered. A question
or final answer is stored in the same save as the state change and sent from there
(``core.replies``).

When storage cannot be reached (a checkpoint, or a step reading it), the run pauses
where it is and tries again with backoff until storage is back, then goes on in the
same task: no restart needed. The user is told once that it will finish later.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import structlog

from core.acting import RunActing
from core.clock import Clock
from core.commands import Lang, as_lang
from core.errors import (
    BrowserError,
    ClubError,
    PortalError,
    ScenarioError,
    StorageUnavailable,
    UncertainOutcome,
)
from core.events import (
    EventBus,
    QuestionAsked,
    RunFinished,
    RunResumed,
    StepFailed,
    StepStarted,
    StepSucceeded,
)
from core.outage import OutagePolicy, StoragePause
from core.output import OutputSink, Progress, Reply
from core.pause import NeedsAnswer, QuestionSpec
from core.replies import Replies, question_output
from core.scenario import StepContext, StepScenario
from core.store import (
    OptionRecord,
    PendingQuestion,
    ReplyKind,
    RunStatus,
    ScenarioRun,
    StepRecord,
    StepStatus,
    Store,
)
from core.texts import Run, tr

__all__ = ["ScenarioRunner"]

log = structlog.get_logger("clubman.runner")


class ScenarioRunner:
    def __init__(
        self,
        *,
        storage: Store,
        scenarios: Mapping[str, StepScenario[Any]],
        bus: EventBus,
        sink: OutputSink,
        clock: Clock,
        waiting_ttl: timedelta,
        outage: OutagePolicy | None = None,
    ) -> None:
        self._storage = storage
        self._scenarios = scenarios
        self._bus = bus
        self._sink = sink
        self._clock = clock
        self._waiting_ttl = waiting_ttl
        self._outage = outage or OutagePolicy()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.replies = Replies(storage.runs, sink, locks=storage.locks)

    def scenario_of(self, run: ScenarioRun) -> StepScenario[Any] | None:
        return self._scenarios.get(run.scenario)

    def scenario_of_name(self, name: str) -> StepScenario[Any] | None:
        return self._scenarios.get(name)

    def finished(self, run: ScenarioRun) -> StepContext[Any] | None:
        """A done run's context as its summary saw it (what the run offers is read there)."""
        scenario = self.scenario_of(run)
        if scenario is None or run.status is not RunStatus.DONE:
            return None
        return self._context(run, *scenario.checkpointed(run))

    def progress(self, run: ScenarioRun, *, current: str | None = None) -> Progress:
        scenario = self.scenario_of(run)
        if scenario is not None:
            return scenario.progress(run, current=current)
        lang = as_lang(run.lang)  # a scenario no longer registered: its name, no steps
        return Progress(
            chat_id=run.chat_id, run_id=run.short_id, title=run.scenario, steps=[], lang=lang
        )

    async def ask(self, run: ScenarioRun, question: QuestionSpec) -> None:
        """Checkpoint ``run`` as waiting on ``question``, then show the question."""
        run.questions_asked += 1
        run.question = PendingQuestion(
            seq=run.questions_asked,
            key=question.key,
            text=question.text,
            options=[OptionRecord(id=o.id, label=o.label) for o in question.options],
            allow_free_text=question.allow_free_text,
        )
        run.expires_at = self._clock.now() + self._waiting_ttl
        self.replies.owe(run, ReplyKind.QUESTION, question.text, now=self._clock.now())
        await self._checkpoint(run)
        await self._bus.publish(
            QuestionAsked(
                chat_id=run.chat_id,
                run_id=run.short_id,
                key=question.key,
                text=question.text,
                options=[o.label for o in question.options],
            )
        )
        await self.replies.send(run)

    async def ask_again(self, run: ScenarioRun, *, reason: str) -> None:
        """Show the pending question again after ``reason``; it keeps its number, so the
        buttons already shown keep working."""
        question = question_output(run)
        question.text = tr(
            Run.INVALID_ANSWER, as_lang(run.lang), reason=reason, question=question.text
        )
        await self._sink.deliver(question)

    def start(self, run: ScenarioRun) -> None:
        """Run the run's remaining steps in a task. If its previous task is still winding
        down (a paused step releasing its browser), the new one starts after it."""
        run_id = run.short_id
        previous = self._tasks.get(run_id)
        task = asyncio.create_task(self._execute(run_id, after=previous), name=f"run:{run_id}")
        self._tasks[run_id] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._tasks.get(run_id) is done:
                del self._tasks[run_id]

        task.add_done_callback(forget)

    def is_running(self, run_id: str) -> bool:
        return run_id in self._tasks

    async def stop(self, run_id: str) -> None:
        """Stop a run's task (if any) and wait until it has let go."""
        task = self._tasks.get(run_id)
        if task is None:
            return
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    async def resume_all(self) -> int:
        """Continue the running runs no other live process is executing; how many."""
        runs = []
        for run in await self._storage.runs.with_status(RunStatus.RUNNING):
            if await self._executed_elsewhere(run):
                log.info("run.left_to_its_process", run_id=run.short_id)
            else:
                runs.append(run)
        for run in runs:
            scenario = self.scenario_of(run)
            pending = (
                [s.name for s in scenario.steps() if s.name not in run.done_steps()]
                if (scenario)
                else []
            )
            await self._bus.publish(
                RunResumed(
                    chat_id=run.chat_id,
                    run_id=run.short_id,
                    next_step=pending[0] if pending else None,
                )
            )
            self.start(run)
        return len(runs)

    async def _executed_elsewhere(self, run: ScenarioRun) -> bool:
        me = self._storage.locks.holder
        return run.runner not in (None, me) and await self._storage.locks.alive(run.runner)

    async def close(self) -> None:
        """Stop every task; their runs stay ``running`` and resume on the next start."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def wait_idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def _context(
        self, run: ScenarioRun, slots: Any, results: dict[str, dict[str, Any]]
    ) -> StepContext[Any]:
        async def queued() -> None:
            progress = self.progress(run)
            await self.replies.show_progress(run, progress.model_copy(update={"queued": True}))

        return StepContext(
            run_id=run.short_id,
            chat_id=run.chat_id,
            user_id=run.user_id,
            admin=run.admin,
            lang=as_lang(run.lang),
            now=self._clock.now(),
            tz=ZoneInfo(run.timezone),
            slots=slots,
            results=results,
            answers=dict(run.answers),
            emit=self._bus.publish,
            queued=queued,
            acting=RunActing(run, lambda: self._checkpoint(run)),
        )

    async def _execute(self, run_id: str, *, after: asyncio.Task[None] | None = None) -> None:
        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        structlog.contextvars.bind_contextvars(run_id=run_id)
        pause = StoragePause(self._outage, self._sink, None)
        run = await pause.through(lambda: self._storage.runs.get(run_id))
        if run is None or run.status is not RunStatus.RUNNING:
            return
        scenario = self.scenario_of(run)
        if scenario is None:
            await self._finish(run, RunStatus.FAILED, error=f"unknown scenario {run.scenario}")
            return
        try:
            await self._run_steps(run, scenario)
        finally:
            # Browser contexts and the like are the scenario's to close, on every path.
            await scenario.release(run_id)

    async def _run_steps(self, run: ScenarioRun, scenario: StepScenario[Any]) -> None:
        run_id = run.short_id
        slots, results = scenario.checkpointed(run)
        pause = self._pause(run)
        if run.runner != self._storage.locks.holder:  # ours now (``resume_all``)
            run.runner = self._storage.locks.holder
            await self._checkpoint(run, pause)
        for step in scenario.steps():
            if step.name in results:
                continue
            ctx = self._context(run, slots, results)
            started = self._clock.now()
            await self._bus.publish(StepStarted(chat_id=run.chat_id, run_id=run_id, step=step.name))
            await self.replies.show_progress(run, self.progress(run, current=step.name))
            try:
                # Steps are idempotent: one that found storage down is simply run again.
                made = await pause.through(lambda: step.run(ctx))  # noqa: B023
                result = made.model_dump(mode="json") if made is not None else {}
            except NeedsAnswer as paused:
                run.status = RunStatus.WAITING
                await self.ask(run, paused.question)
                return
            except ClubError as exc:
                shot = await scenario.screenshot(run_id)
                await self._step_failed(run, step.name, started, exc, shot)
                return
            except Exception:
                log.exception("step.crashed", step=step.name)
                shot = await scenario.screenshot(run_id)
                await self._step_failed(run, step.name, started, None, shot)
                return
            results[step.name] = result
            record = StepRecord(
                name=step.name,
                status=StepStatus.DONE,
                result=result,
                started_at=started,
                finished_at=self._clock.now(),
            )
            run.steps.append(record)
            await self._checkpoint(run, pause)
            await self._bus.publish(
                StepSucceeded(
                    chat_id=run.chat_id, run_id=run_id, step=step.name, result=result,
                    duration_ms=record.duration_ms,
                )
            )  # fmt: skip
        await self.replies.show_progress(run, self.progress(run))
        context = self._context(run, slots, results)
        summary = scenario.summary(context)
        calendar = bool(scenario.calendar(context))
        await pause.through(lambda: self._on_done(run, scenario, context))
        self.replies.owe(run, ReplyKind.DONE, summary, now=self._clock.now(), calendar=calendar)
        await self._finish(run, RunStatus.DONE, summary=summary, pause=pause)
        await self.replies.send(run)

    async def _on_done(
        self, run: ScenarioRun, scenario: StepScenario[Any], context: StepContext[Any]
    ) -> None:
        """What a run leaves behind is second to its answer: a failure is logged, and the
        run finishes (an outage is waited out like a checkpoint's)."""
        try:
            await scenario.on_done(run, context)
        except StorageUnavailable:
            raise
        except Exception:
            log.exception("run.on_done_failed", run_id=run.short_id)

    async def _step_failed(
        self,
        run: ScenarioRun,
        step: str,
        started: Any,
        exc: ClubError | None,
        screenshot: bytes | None,
    ) -> None:
        error = exc.message if exc is not None else "crashed"
        run.failure_screenshot = screenshot
        record = StepRecord(
            name=step,
            status=StepStatus.FAILED,
            error=error,
            started_at=started,
            finished_at=self._clock.now(),
        )
        run.steps.append(record)
        await self._bus.publish(
            StepFailed(
                chat_id=run.chat_id, run_id=run.short_id, step=step, error=error,
                error_kind=type(exc).__name__ if exc is not None else "crashed",
                for_admins=exc.for_admins if exc is not None else "",
                portal=isinstance(exc, PortalError),
                duration_ms=record.duration_ms,
            )
        )  # fmt: skip
        message = _failure_text(exc, as_lang(run.lang))
        self.replies.owe(run, ReplyKind.FAILED, message, now=self._clock.now())
        await self._finish(run, RunStatus.FAILED, error=error)
        await self.replies.show_progress(run, self.progress(run))
        await self.replies.send(run)

    async def _finish(
        self,
        run: ScenarioRun,
        status: RunStatus,
        *,
        summary: str | None = None,
        error: str | None = None,
        pause: StoragePause | None = None,
    ) -> None:
        run.status = status
        run.summary = summary
        run.error = error
        run.question = None
        run.expires_at = None
        await self._checkpoint(run, pause)
        await self._bus.publish(
            RunFinished(
                chat_id=run.chat_id,
                run_id=run.short_id,
                status=status.value,
                summary=summary,
                scenario=run.scenario,
            )
        )

    async def _checkpoint(self, run: ScenarioRun, pause: StoragePause | None = None) -> None:
        """Save ``run``, waiting out a storage outage (see the module's docstring)."""
        await (pause or self._pause(run)).through(lambda: self._storage.runs.save(run))

    def _pause(self, run: ScenarioRun) -> StoragePause:
        lang = as_lang(run.lang)
        text = tr(Run.PAUSED_OUTAGE, lang, title=self.progress(run).title)
        return StoragePause(
            self._outage, self._sink, Reply(chat_id=run.chat_id, text=text, lang=lang)
        )


def _failure_text(exc: ClubError | None, lang: Lang) -> str:
    """What the user reads of a failed step: in their language, naming no settings or
    internals. A site's or scenario's refusal carries words meant for them; a browser,
    storage or configuration failure is ours, told as such (the details are in the log).
    A step that may have acted says so in its own words."""
    if isinstance(exc, UncertainOutcome):
        return exc.message
    if isinstance(exc, PortalError | ScenarioError):
        return tr(Run.FAILED, lang, reason=str(exc))
    if isinstance(exc, BrowserError):
        return tr(Run.FAILED, lang, reason=tr(Run.BROWSER_TROUBLE, lang))
    return tr(Run.APOLOGY, lang)
