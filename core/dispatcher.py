"""The NLU manager: one session per chat; every message goes to the chat's run that
waits for an answer, or to the planner as a new command."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any
from zoneinfo import ZoneInfo

import structlog
from pydantic import BaseModel

from core.assist.extractor import SlotExtractor, fill_slots
from core.authz import Roles, may_act
from core.clock import Clock
from core.collector import SlotCollector
from core.commands import Answer, Command, Lang, as_lang
from core.errors import ConfigError
from core.events import CommandReceived, EventBus, NoScenario, ScenarioChosen
from core.language import answer_language, learnt_language
from core.nlu import Decision
from core.output import AnswerOutcome, OutputSink, Question, Reply
from core.planner import ProxyPlanner
from core.replies import question_output
from core.routing import declines, forced_intent, is_command_of, repeats, starts_other
from core.run_control import RunControl
from core.runner import ScenarioRunner
from core.scenario import BaseScenario, GuideScenario, InstantScenario, StepScenario, Utterance
from core.site.catalogue import Catalogues
from core.store import (
    Direction,
    RunStatus,
    ScenarioRun,
    Store,
    UserProfile,
)
from core.texts import Run, tr
from core.turns import ChatTurns
from core.user_settings import UserSettings

__all__ = ["ChatDispatcher", "NewCommandPending"]

log = structlog.get_logger("clubman.manager")


class NewCommandPending(BaseModel):
    """``handle`` held back a text that reads as a new complete command while run
    ``run_id`` waits on ``question``: the view asks whether to start anew."""

    run_id: str
    question: str
    lang: Lang


class ChatDispatcher:
    """Takes every message of every chat, in the chat's turn: to the chat's run that waits
    for an answer, or to the planner as a new command. Handed its collaborators (the
    composition root wires them); it builds none."""

    def __init__(
        self,
        *,
        storage: Store,
        scenarios: Sequence[BaseScenario],
        planner: ProxyPlanner,
        runner: ScenarioRunner,
        collector: SlotCollector,
        control: RunControl,
        turns: ChatTurns,
        user_settings: UserSettings,
        catalogues: Catalogues,
        sink: OutputSink,
        bus: EventBus,
        clock: Clock,
        default_timezone: str,
        roles: Roles,
        extractor: SlotExtractor | None = None,
        expiry_interval: float = 30.0,
    ) -> None:
        self._storage = storage
        self._roles = roles
        self._catalogues = catalogues  # the site's buildings, for the NLU
        self._extractor = extractor  # None: slots come from the rules only
        self._sink = sink
        self._bus = bus
        self._clock = clock
        self._default_tz = default_timezone
        self._expiry_interval = expiry_interval
        self._planner = planner
        self.shortcuts = tuple(shortcut for s in scenarios for shortcut in s.shortcuts)
        # The help scenario also writes what /start and /help show.
        self._guide = next((s for s in scenarios if isinstance(s, GuideScenario)), None)
        self._runner = runner
        self._collector = collector
        self._sessions = turns
        self._control = control
        self.user_settings = user_settings
        self._expiry_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None

    @property
    def runner(self) -> ScenarioRunner:
        return self._runner

    @property
    def control(self) -> RunControl:
        """Starting runs no message asked for; cancelling, expiring and listing runs; a
        finished run's calendar file."""
        return self._control

    def chat_turn(self, chat_id: int) -> AbstractAsyncContextManager[bool]:
        """The chat's turn (see ``ChatTurns``), for a view that orders whole updates."""
        return self._sessions.turn(chat_id)

    async def __aenter__(self) -> ChatDispatcher:
        resumed = await self._runner.resume_all()
        log.info("manager.started", resumed=resumed)
        self._expiry_task = asyncio.create_task(
            self._control.expire_forever(self._expiry_interval), name="expiry"
        )
        self._sweep_task = asyncio.create_task(
            self._runner.replies.sweep_forever(), name="replies-sweep"
        )
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for task in (self._expiry_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self._runner.close()
        await self._sessions.close()

    # --- messages -------------------------------------------------------------------

    async def handle(
        self, command: Command, *, confirm_new: bool = False
    ) -> NewCommandPending | None:
        """A new command, or the answer to the chat's waiting question.

        With ``confirm_new`` (a view that can ask back), a text that reads as a complete new
        command of the waiting run's kind is neither: nothing is done and the view asks
        which was meant (``start_instead`` or the question again). Without it, such a text
        is taken as the answer."""
        async with self._sessions.turn(command.chat_id) as fresh:
            await self._received(command)
            if fresh:  # both read from Redis: gathered, they share one round trip
                user, waiting = await asyncio.gather(
                    self._user(command), self._waiting_run(command.chat_id, command.user_id)
                )
            else:  # both answered from memory: awaited in turn, they cost no tasks
                user = await self._user(command)
                waiting = await self._waiting_run(command.chat_id, command.user_id)
            decision = await self._decide(command, user)
            if declines(decision, waiting):
                assert waiting is not None
                await self._control.end(waiting, RunStatus.CANCELLED, Run.CANCELLED)
                return None
            if waiting is None or starts_other(command, decision, waiting):
                await self._start(command, decision, user)
                return None
            if confirm_new and repeats(decision, waiting):
                assert waiting.question is not None
                return NewCommandPending(
                    run_id=waiting.short_id,
                    question=waiting.question.text,
                    lang=as_lang(waiting.lang),
                )
            await self._answer_locked(
                waiting,
                Answer(
                    chat_id=command.chat_id,
                    user_id=command.user_id,
                    run_id=waiting.short_id,
                    text=command.text,
                ),
            )
            return None

    async def start_instead(self, command: Command, *, run_id: str) -> bool:
        """Cancel run ``run_id`` and start ``command`` (already received by ``handle``) in
        its place; False, doing nothing, when that run no longer waits for an answer."""
        async with self._sessions.turn(command.chat_id):
            run = await self._storage.runs.get(run_id)
            if run is None or run.chat_id != command.chat_id or not run.status.awaiting_answer:
                return False
            await self._control.end(run, RunStatus.CANCELLED, Run.CANCELLED)
            user = await self._user(command)
            await self._start(command, await self._decide(command, user), user)
            return True

    async def correct(self, command: Command) -> bool:
        """An edited message: a correction while the chat's newest run still collects its
        details (not started yet), else False and nothing is done.

        Which message the edit belongs to is not known here, so the rule is by state: a
        text that reads as a command of that run's kind replaces the run (started anew from
        the corrected text); any other text answers its question, as a new message would."""
        async with self._sessions.turn(command.chat_id):
            runs = await self._storage.runs.active_for_chat(command.chat_id)
            run = runs[-1] if runs else None
            if run is None or run.status is not RunStatus.COLLECTING or run.question is None:
                return False
            await self._received(command)
            user = await self._user(command)
            decision = await self._decide(command, user)
            if not is_command_of(decision, run):
                await self._answer_locked(
                    run,
                    Answer(
                        chat_id=command.chat_id,
                        user_id=command.user_id,
                        run_id=run.short_id,
                        text=command.text,
                    ),
                )
                return True
            await self._control.end(run, RunStatus.CANCELLED, Run.CORRECTED)
            await self._start(command, decision, user)
            return True

    async def _received(self, command: Command) -> None:
        structlog.contextvars.bind_contextvars(chat_id=command.chat_id)
        await self._storage.conversations.append(
            chat_id=command.chat_id,
            user_id=command.user_id,
            direction=Direction.IN,
            text=command.text,
        )
        await self._bus.publish(
            CommandReceived(chat_id=command.chat_id, user_id=command.user_id, text=command.text)
        )

    async def _decide(self, command: Command, user: UserProfile) -> Decision:
        """What the text asks, to be answered in the user's (sticky) language."""
        tz = ZoneInfo(user.timezone or self._default_tz)
        said = Utterance(
            text=command.text, now=self._clock.now(), tz=tz, places=self._catalogues.places
        )
        decision = self._planner.understand(said)
        lang = answer_language(user, command.text, client=command.lang)
        if (learnt := learnt_language(user, command.text)) is not None:
            # it sticks
            await self.user_settings.learn_language(user, learnt)
        update: dict[str, Any] = {"lang": lang}
        forced = forced_intent(command)
        if forced is not None:
            update |= {"intent": forced, "confidence": 1.0}
        return decision.model_copy(update=update)

    async def _user(self, command: Command) -> UserProfile:
        return await self._storage.users.profile(
            command.user_id, name=command.user_name, language=command.lang or "ru"
        )

    async def _waiting_run(self, chat_id: int, user_id: int | None = None) -> ScenarioRun | None:
        """The chat's newest run waiting for an answer (of ``user_id``, when given: what a
        member types answers only their own question; another's waits for its owner)."""
        runs = await self._storage.runs.active_for_chat(chat_id)
        waiting = [
            r
            for r in runs
            if r.status.awaiting_answer
            and r.question is not None
            and (user_id is None or r.user_id == user_id)
        ]
        return waiting[-1] if waiting else None

    async def _start(self, command: Command, decision: Decision, user: UserProfile) -> None:
        choice = await self._planner.choose(command.text, decision)
        lang = decision.lang
        scenario = choice.scenario
        if scenario is None:
            await self._bus.publish(NoScenario(chat_id=command.chat_id, intent=choice.intent))
            await self._reply(
                command.chat_id, tr(Run.NOT_CONFIGURED, lang, what=choice.intent), lang
            )
            return
        chosen = ScenarioChosen(
            chat_id=command.chat_id,
            scenario=scenario.name,
            intent=choice.intent,
            score=choice.score,
            via=choice.via,
        )
        if isinstance(scenario, InstantScenario):
            await self._bus.publish(chosen)
            answer = await scenario.respond(command, decision)
            await self._reply(command.chat_id, answer, lang)
            return
        assert isinstance(scenario, StepScenario)
        decision = await fill_slots(
            self._extractor, command.text, decision, choice.intent,
            guessing=scenario.guessing, required=scenario.guessable, now=self._clock.now(),
            tz=ZoneInfo(user.timezone or self._default_tz), user_id=command.user_id,
            buildings=self._catalogues.current.buildings,
        )  # fmt: skip
        run = ScenarioRun(
            chat_id=command.chat_id,
            user_id=command.user_id,
            admin=self._roles.actor(command.user_id, chat_admin=command.admin).admin,
            scenario=scenario.name,
            lang=lang,
            timezone=user.timezone or self._default_tz,
            command_text=command.text,
            slots=scenario.initial_slots(decision),
            acted=[],
        )
        run = await self._storage.runs.create(run)
        structlog.contextvars.bind_contextvars(run_id=run.short_id)
        # Published once the run exists, so its id puts the choice on the run's timeline.
        chosen.run_id = run.short_id
        await self._bus.publish(chosen)
        await self._collector.advance(run, scenario)

    async def _reply(self, chat_id: int, body: str, lang: Lang) -> None:
        await self._sink.deliver(Reply(chat_id=chat_id, text=body, lang=lang))

    # --- answers ---------------------------------------------------------------------

    async def answer(self, answer: Answer) -> AnswerOutcome:
        async with self._sessions.turn(answer.chat_id):
            run = await self._storage.runs.get(answer.run_id)
            if run is None or run.chat_id != answer.chat_id:
                return AnswerOutcome(accepted=False, note=tr(Run.STALE_ANSWER, "ru"))
            actor = self._roles.actor(answer.user_id, chat_admin=answer.admin)
            if not may_act(actor, run.user_id):
                lang = await self._control.language_of(answer.user_id)
                note = tr(Run.NOT_YOUR_QUESTION, lang)
                return AnswerOutcome(accepted=False, note=note, not_yours=True)
            if answer.text is not None:
                await self._storage.conversations.append(
                    chat_id=answer.chat_id,
                    user_id=answer.user_id,
                    direction=Direction.IN,
                    text=answer.text,
                    run_id=run.short_id,
                )
            return await self._answer_locked(run, answer)

    async def _answer_locked(self, run: ScenarioRun, answer: Answer) -> AnswerOutcome:
        lang = as_lang(run.lang)
        stale = (
            not run.status.awaiting_answer
            or run.question is None
            or (answer.seq is not None and answer.seq != run.question.seq)
        )
        scenario = self._runner.scenario_of(run)
        if stale or scenario is None:
            return AnswerOutcome(accepted=False, note=tr(Run.STALE_ANSWER, lang))
        return await self._collector.accept(run, scenario, answer)

    async def pending_question(self, chat_id: int) -> Question | None:
        """The chat's open question as output (views re-show it, e.g. after /status)."""
        run = await self._waiting_run(chat_id)
        return question_output(run) if run is not None else None

    # --- texts and user settings -----------------------------------------------------

    def greeting(self, lang: Lang, name: str) -> str:
        return self._require_guide().greeting(lang, name)

    def help_text(self, lang: Lang) -> str:
        return self._require_guide().help_text(lang)

    def _require_guide(self) -> GuideScenario:
        if self._guide is None:
            raise ConfigError("no help scenario is registered")
        return self._guide
