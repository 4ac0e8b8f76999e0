"""The base of every scenario: a typed slot model, the slots to collect, and ordered,
idempotent steps. A step may pause with ``ctx.ask(...)`` (a typed ``NeedsAnswer``);
it is then run again from its start once the answer is stored, so a step must be
safe to repeat (check before acting)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Generic, NamedTuple, NoReturn, TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel, TypeAdapter, ValidationError

from core.acting import Acting, MayHaveActed
from core.authz import Actor
from core.calendar import CalendarEvent
from core.commands import Command, Lang, as_lang
from core.events import BaseEvent
from core.guessing import Guessing
from core.nlu import (
    Decision,
    Places,
    SlotParseError,
    date_question,
    disputed_dates,
    end_question,
    parse_slot,
    question_for,
    start_question,
)
from core.nlu.lexicon import Lexicon
from core.output import Option, Progress, StepState, StepView
from core.pause import NeedsAnswer, QuestionSpec
from core.store import ScenarioRun, StepStatus
from core.texts import Common, Run, Text, tr

__all__ = [
    "BaseScenario",
    "GuideScenario",
    "InstantScenario",
    "Shortcut",
    "SlotContext",
    "Step",
    "StepContext",
    "StepScenario",
    "Utterance",
]

S = TypeVar("S", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class SlotContext:
    """What slot questions and answer parsers may look at."""

    chat_id: int
    user_id: int
    lang: Lang
    now: datetime
    tz: ZoneInfo
    slots: dict[str, Any]
    places: Places  # the booking system's buildings, for answers that name one


@dataclass(frozen=True, slots=True)
class Utterance:
    """A new command as a scenario reads it to recognise its own intents."""

    text: str
    now: datetime
    tz: ZoneInfo
    places: Places


async def _nothing() -> None:
    """The default ``queued`` notice: nobody to tell."""


@dataclass
class StepContext(Generic[S]):
    run_id: str
    chat_id: int
    user_id: int
    lang: Lang
    now: datetime
    tz: ZoneInfo
    slots: S
    results: dict[str, dict[str, Any]]  # done steps' results as stored (read with ``result``)
    answers: dict[str, str]
    emit: Callable[[BaseEvent], Awaitable[None]]
    # Tells the user the run waits for a free browser.
    queued: Callable[[], Awaitable[None]] = field(default=_nothing)
    # Which steps may have acted on the site already (a step marks it before it does).
    acting: Acting = field(default_factory=MayHaveActed)
    admin: bool = False  # the run was asked by an administrator

    @property
    def actor(self) -> Actor:
        """Who the run acts for, as ``core.authz`` decides what they may touch."""
        return Actor(self.user_id, admin=self.admin)

    def tr(self, text: Text, **values: object) -> str:
        """``text`` in the run's language."""
        return tr(text, self.lang, **values)

    def result(self, step: str, model: type[R]) -> R:
        """The typed result of a step that is done."""
        return model.model_validate(self.results[step])

    def answer(self, key: str) -> str | None:
        return self.answers.get(key)

    def ask(
        self, key: str, text: str, options: Sequence[Option] = (), *, allow_free_text: bool = True
    ) -> NoReturn:
        raise NeedsAnswer(
            QuestionSpec(key=key, text=text, options=list(options), allow_free_text=allow_free_text)
        )

    def confirm(
        self, key: str, text: str, *, yes: Option | None = None, no: Option | None = None
    ) -> bool:
        """Whether the user said yes to ``text``, asked with two buttons and no free text
        (pauses until answered); ``yes``, ``no``: buttons other than «Да» and «Нет»."""
        yes = yes or Option(id="yes", label=self.tr(Common.YES))
        no = no or Option(id="no", label=self.tr(Common.NO))
        answer = self.answers.get(key)
        if answer is None:
            self.ask(key, text, [yes, no], allow_free_text=False)
        return answer == yes.id


# A step returns its result as a model (checkpointed as JSON), or None for nothing.
StepFn = Callable[[StepContext[Any]], Awaitable[BaseModel | None]]


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    text: Text  # what the progress shows for the step
    run: StepFn

    def label(self, lang: Lang) -> str:
        return tr(self.text, lang)


class Shortcut(NamedTuple):
    """A view's command for one of a scenario's intents («/bookings»), with its menu line:
    the command's text is not classified."""

    command: str
    intent: str
    text: Text


class BaseScenario(ABC):
    """Something the planner can choose for a command.

    A job's scenarios recognise their own commands (``recognise``), tell the LLM
    classifier what their intents mean (``descriptions``) and /help what one can write
    (``examples``); the engine collects them from every registered scenario."""

    name: ClassVar[str]
    intents: ClassVar[frozenset[str]]
    # Each intent in a line the LLM classifier reads (intent → what it asks for).
    descriptions: ClassVar[Mapping[str, str]] = {}
    # Intents that make something happen: a negated command is never classified as one.
    acting: ClassVar[frozenset[str]] = frozenset()
    # Commands the views offer for its intents (Telegram's menu and /bookings).
    shortcuts: ClassVar[tuple[Shortcut, ...]] = ()

    def score(self, decision: Decision) -> float:
        return decision.confidence if decision.intent in self.intents else 0.0

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        """``said`` as one of this scenario's intents, if it is one (with a confidence the
        surest reading so far, ``decision``, is weighed against); ``None``: not this
        scenario's. One scenario of a job reads for all its intents."""
        return None

    def examples(self, lang: Lang) -> Sequence[str]:
        """Requests one can write for this scenario, for /help."""
        return ()

    def about(self, lang: Lang) -> str | None:
        """What this scenario's job does, a line at the top of /help (one scenario of a job
        says it)."""
        return None


class InstantScenario(BaseScenario):
    """Answers at once with one reply; no run is stored (help, unknown)."""

    @abstractmethod
    async def respond(self, command: Command, decision: Decision) -> str: ...


class GuideScenario(InstantScenario):
    """The help scenario: it also writes the greeting and help the views show for
    /start and /help, so core asks it for them instead of knowing the texts."""

    @abstractmethod
    def greeting(self, lang: Lang, name: str) -> str: ...

    @abstractmethod
    def help_text(self, lang: Lang) -> str: ...


class StepScenario(BaseScenario, Generic[S]):
    """A durable scenario: slots are collected by questions, then steps run in order."""

    slot_model: ClassVar[type[BaseModel]]
    title_text: ClassVar[Text]
    # Required slots an LLM may guess when the rules leave them missing, and how it is
    # asked and its guess taken (the job's); none: the LLM extractor is not asked.
    guessable: ClassVar[tuple[str, ...]] = ()
    guessing: ClassVar[Guessing[Any] | None] = None

    def title(self, lang: Lang) -> str:
        return tr(self.title_text, lang)

    def checkpointed(self, run: ScenarioRun) -> tuple[Any, dict[str, dict[str, Any]]]:
        """``run``'s slots and the results of its done steps, as last saved."""
        slots = self.slot_model.model_validate(run.slots)
        return slots, {s.name: s.result for s in run.steps if s.status is StepStatus.DONE}

    def progress(self, run: ScenarioRun, *, current: str | None = None) -> Progress:
        """``run``'s steps as the views show them: done, failed, running (``current``)
        or still to come."""
        lang = as_lang(run.lang)
        records = {step.name: step.status for step in run.steps}
        views: list[StepView] = []
        for step in self.steps():
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
        return Progress(
            chat_id=run.chat_id, run_id=run.short_id, title=self.title(lang), steps=views,
            lang=lang,
        )  # fmt: skip

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        """Slots found in the command's text, in their JSON form."""
        return decision.found()

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        """Slots still to ask for, in order (required ones and ones worth asking)."""
        return []

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        if slot == "date":  # every job asks a date one way (a disputed one: both offered)
            today = ctx.now.astimezone(ctx.tz).date()
            return date_question(ctx.slots, today=today, lang=ctx.lang)
        if slot == "start":  # and a time one way
            return start_question(lang=ctx.lang)
        if slot == "end":
            return end_question(ctx.slots, lang=ctx.lang)
        return QuestionSpec(key=slot, text=question_for(slot, ctx.lang))  # type: ignore[arg-type]

    def lexicon(self) -> Lexicon | None:
        """The words an answer is read in: the job's (none: the engine's alone)."""
        return None

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        """Turn an answer into the slot's JSON value; raise ``SlotParseError`` with a reason."""
        if option_id is not None:
            raw: Any = option_id
        else:
            today = ctx.now.astimezone(ctx.tz).date()
            raw = parse_slot(
                slot,  # type: ignore[arg-type]
                text or "",
                now=ctx.now,
                tz=ctx.tz,
                lang=ctx.lang,
                places=ctx.places,
                lexicon=self.lexicon(),
                offered=disputed_dates(ctx.slots, today) if slot == "date" else (),
            )
        field_info = self.slot_model.model_fields.get(slot)
        if field_info is None:
            return raw
        try:
            adapter: TypeAdapter[Any] = TypeAdapter(field_info.annotation)
            value = adapter.validate_python(raw)
        except ValidationError as exc:
            raise SlotParseError(tr(Run.DOES_NOT_FIT, ctx.lang)) from exc
        return adapter.dump_python(value, mode="json")

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        """A (slot, reason) that makes the whole set invalid, e.g. end before start."""
        return None

    @abstractmethod
    def steps(self) -> Sequence[Step]: ...

    @abstractmethod
    def summary(self, ctx: StepContext[Any]) -> str: ...

    def calendar(self, ctx: StepContext[Any]) -> list[CalendarEvent]:
        """What a finished run offers for the user's calendar (none by default)."""
        return []

    async def on_done(self, run: ScenarioRun, ctx: StepContext[Any]) -> None:
        """What a finished run leaves behind (the booking job plans its reminder), called
        before the run is saved done, so it may be called again after a crash: make it
        idempotent. Its failure is logged and the run finishes all the same."""

    async def screenshot(self, run_id: str) -> bytes | None:
        """A picture of what the run saw when a step failed, if it has one."""
        return None

    async def release(self, run_id: str) -> None:
        """Close what the run's steps opened (browser contexts); called on every exit."""
