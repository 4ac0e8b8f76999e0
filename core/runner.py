"""The scenario runner: each run's steps as an asyncio task, checkpointed after every step.

A run document is the state. A step that finished is recorded before the next one
starts, so after a crash or restart ``resume_all`` continues from the first step
not done; a step that paused (``NeedsAnswer``) is run again once answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import structlog

from core.clock import Clock
from core.commands import Lang
from core.errors import ClubError
from core.events import (
    EventBus,
    QuestionAsked,
    RunFinished,
    RunResumed,
    StepFailed,
    StepStarted,
    StepSucceeded,
)
from core.output import Done, Failed, Option, OutputSink, Progress, Question, StepState, StepView
from core.pause import NeedsAnswer, QuestionSpec
from core.scenario import StepContext, StepScenario
from core.store import (
    OptionRecord,
    PendingQuestion,
    RunStatus,
    ScenarioRun,
    StepRecord,
    StepStatus,
    Store,
)
from core.texts import Run, tr

__all__ = ["ScenarioRunner", "question_output"]

log = structlog.get_logger("clubman.runner")


def _lang(run: ScenarioRun) -> Lang:
    return "en" if run.lang == "en" else "ru"


def question_output(run: ScenarioRun) -> Question:
    assert run.question is not None
    return Question(
        chat_id=run.chat_id,
        run_id=run.short_id,
        seq=run.question.seq,
        key=run.question.key,
        text=run.question.text,
        options=[Option(id=o.id, label=o.label) for o in run.question.options],
        allow_free_text=run.question.allow_free_text,
        lang=_lang(run),
    )


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
    ) -> None:
        self._storage = storage
        self._scenarios = scenarios
        self._bus = bus
        self._sink = sink
        self._clock = clock
        self._waiting_ttl = waiting_ttl
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def scenario_of(self, run: ScenarioRun) -> StepScenario[Any] | None:
        return self._scenarios.get(run.scenario)

    def scenario_of_name(self, name: str) -> StepScenario[Any] | None:
        return self._scenarios.get(name)

    def progress(self, run: ScenarioRun, *, current: str | None = None) -> Progress:
        lang = _lang(run)
        scenario = self.scenario_of(run)
        records = {step.name: step.status for step in run.steps}
        views: list[StepView] = []
        for step in scenario.steps() if scenario else []:
            record = records.get(step.name)
            if record is StepStatus.DONE:
                state = StepState.DONE
            elif record is StepStatus.FAILED:
                state = StepState.FAILED
            elif step.name == current:
                state = StepState.RUNNING
            else:
                state = StepState.PENDING
            views.append(StepView(name=step.name, label=step.label(lang), state=state))
        title = scenario.title(lang) if scenario else run.scenario
        return Progress(
            chat_id=run.chat_id, run_id=run.short_id, title=title, steps=views, lang=lang
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
        await self._storage.runs.save(run)
        await self._bus.publish(
            QuestionAsked(
                chat_id=run.chat_id,
                run_id=run.short_id,
                key=question.key,
                text=question.text,
                options=[o.label for o in question.options],
            )
        )
        await self._sink.deliver(question_output(run))

    async def ask_again(self, run: ScenarioRun, *, reason: str) -> None:
        """Show the pending question again after ``reason``; it keeps its number, so the
        buttons already shown keep working."""
        question = question_output(run)
        question.text = tr(Run.INVALID_ANSWER, _lang(run), reason=reason, question=question.text)
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
        runs = await self._storage.runs.with_status(RunStatus.RUNNING)
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
            await self._sink.deliver(progress.model_copy(update={"queued": True}))

        return StepContext(
            run_id=run.short_id,
            chat_id=run.chat_id,
            user_id=run.user_id,
            lang=_lang(run),
            now=self._clock.now(),
            tz=ZoneInfo(run.timezone),
            slots=slots,
            results=results,
            answers=dict(run.answers),
            emit=self._bus.publish,
            queued=queued,
        )

    async def _execute(self, run_id: str, *, after: asyncio.Task[None] | None = None) -> None:
        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        structlog.contextvars.bind_contextvars(run_id=run_id)
        run = await self._storage.runs.get(run_id)
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
        slots = scenario.slot_model.model_validate(run.slots)
        results = {s.name: s.result for s in run.steps if s.status is StepStatus.DONE}
        for step in scenario.steps():
            if step.name in results:
                continue
            ctx = self._context(run, slots, results)
            started = self._clock.now()
            await self._bus.publish(StepStarted(chat_id=run.chat_id, run_id=run_id, step=step.name))
            await self._sink.deliver(self.progress(run, current=step.name))
            try:
                made = await step.run(ctx)
                result = made.model_dump(mode="json") if made is not None else {}
            except NeedsAnswer as pause:
                run.status = RunStatus.WAITING
                await self.ask(run, pause.question)
                return
            except ClubError as exc:
                shot = await scenario.screenshot(run_id)
                await self._step_failed(run, step.name, started, exc.message, exc, shot)
                return
            except Exception as exc:
                log.exception("step.crashed", step=step.name)
                shot = await scenario.screenshot(run_id)
                await self._step_failed(run, step.name, started, type(exc).__name__, None, shot)
                return
            results[step.name] = result
            run.steps.append(
                StepRecord(
                    name=step.name,
                    status=StepStatus.DONE,
                    result=result,
                    started_at=started,
                    finished_at=self._clock.now(),
                )
            )
            await self._storage.runs.save(run)  # the checkpoint
            await self._bus.publish(
                StepSucceeded(chat_id=run.chat_id, run_id=run_id, step=step.name, result=result)
            )
        await self._sink.deliver(self.progress(run))
        summary = scenario.summary(self._context(run, slots, results))
        await self._finish(run, RunStatus.DONE, summary=summary)
        await self._sink.deliver(
            Done(chat_id=run.chat_id, run_id=run_id, text=summary, lang=_lang(run))
        )

    async def _step_failed(
        self,
        run: ScenarioRun,
        step: str,
        started: Any,
        error: str,
        exc: ClubError | None,
        screenshot: bytes | None,
    ) -> None:
        run.failure_screenshot = screenshot
        run.steps.append(
            StepRecord(
                name=step,
                status=StepStatus.FAILED,
                error=error,
                started_at=started,
                finished_at=self._clock.now(),
            )
        )
        await self._bus.publish(
            StepFailed(chat_id=run.chat_id, run_id=run.short_id, step=step, error=error)
        )
        lang = _lang(run)
        reason = str(exc) if exc is not None else None
        message = tr(Run.FAILED, lang, reason=reason) if reason else tr(Run.APOLOGY, lang)
        await self._finish(run, RunStatus.FAILED, error=error)
        await self._sink.deliver(self.progress(run))
        await self._sink.deliver(
            Failed(
                chat_id=run.chat_id,
                run_id=run.short_id,
                text=message,
                lang=lang,
                screenshot=screenshot,
            )
        )

    async def _finish(
        self,
        run: ScenarioRun,
        status: RunStatus,
        *,
        summary: str | None = None,
        error: str | None = None,
    ) -> None:
        run.status = status
        run.summary = summary
        run.error = error
        run.question = None
        run.expires_at = None
        await self._storage.runs.save(run)
        await self._bus.publish(
            RunFinished(
                chat_id=run.chat_id, run_id=run.short_id, status=status.value, summary=summary
            )
        )
