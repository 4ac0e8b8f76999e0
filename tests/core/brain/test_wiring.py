"""The helpers plugged into the core: classifier in the planner, extraction in ``_start``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from app.engine import build_core
from core.assist import LLMSlotExtractor
from core.clock import ManualClock
from core.commands import Command, Lang
from core.events import EventBus, ScenarioChosen
from core.guessing import Guessing
from core.llm import FallbackLLM
from core.nlu import Decision
from core.output import Done, Question
from core.scenario import BaseScenario, Step, StepContext, StepScenario, Utterance
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.site.models import Building
from core.texts import Text
from scenarios.booking.guess import BookingGuess
from scenarios.booking.vocabulary import BookingIntent
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from tests.core.brain.conftest import NOW
from tests.fakes.llm import Answer, FakeAnthropic
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink


class Classifier:
    def __init__(self, intent: str | None) -> None:
        self.intent = intent
        self.texts: list[str] = []

    async def classify(self, text: str, intents: Mapping[str, str]) -> str | None:
        self.texts.append(text)
        return self.intent


class Extractor:
    def __init__(self, guess: BookingGuess) -> None:
        self.guess = guess
        self.texts: list[str] = []

    async def extract(
        self,
        text: str,
        *,
        intent: str,
        guessing: Guessing[Any],
        today: dt.date,
        lang: Lang,
        user_id: int | None,
        buildings: Sequence[Building] = (),
    ) -> BaseModel | None:
        self.texts.append(text)
        return self.guess


async def test_the_llm_fills_what_the_rules_missed_and_the_run_needs_no_question(
    storage: Storage,
) -> None:
    sink = CollectingSink()
    bus = EventBus(storage.events)
    chosen: list[ScenarioChosen] = []

    async def record(event: object) -> None:
        if isinstance(event, ScenarioChosen):
            chosen.append(event)

    bus.subscribe(record)
    classifier = Classifier(BookingIntent.BOOK_ROOMS)
    extractor = Extractor(BookingGuess(date="2026-11-30", start="18:00", end="20:00"))
    scenarios = [TrackedScenario(), HelpScenario(), UnknownScenario()]
    async with build_core(
        load_settings(), storage, sink, scenarios=scenarios,
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=ManualClock(NOW), bus=bus,
        classifier=classifier, extractor=extractor,
    ) as core:  # fmt: skip
        await core.handle(Command(chat_id=5, user_id=5, text="забронируй аудиторию в четверг"))
        done = await sink.wait_for(Done)
        assert done.text == "Готово: 2026-11-26 18:00–20:00"  # the user's Thursday kept

        mark = len(sink.outputs)
        await core.handle(Command(chat_id=5, user_id=5, text="ну это, местечко бы нам"))
        await sink.wait_for(Done, after=mark)

    assert classifier.texts == ["ну это, местечко бы нам"]  # only the unclear one
    assert [c.via for c in chosen] == ["rules", "classifier"]
    assert extractor.texts == ["забронируй аудиторию в четверг", "ну это, местечко бы нам"]
    assert not sink.of_kind(Question)


class PollGuess(BaseModel):
    question: str | None = None


class PollGuessing(Guessing[PollGuess]):
    """A plug-in job's own guessing: the engine names none of it."""

    model: ClassVar[type[BaseModel]] = PollGuess

    def brief(self, buildings: Sequence[Building]) -> str:
        return "You extract the question of a club poll from one message. question: its text."

    def merge(
        self, decision: Decision, guess: PollGuess, *, today: dt.date,
        buildings: Sequence[Building],
    ) -> tuple[Decision, list[str]]:  # fmt: skip
        if guess.question is None or "question" in decision.found():
            return decision, []
        return decision.model_copy(update={"details": PollWords(question=guess.question)}), [
            "question"
        ]


class PollWords(BaseModel):
    question: str | None = None


class PollSlots(BaseModel):
    question: str


class Poll(StepScenario[PollSlots]):
    name = "start_poll"
    intents: ClassVar[frozenset[str]] = frozenset({"start_poll"})
    slot_model = PollSlots
    title_text = Text("Опрос", "Poll")
    guessable = ("question",)
    guessing = PollGuessing()

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        if "опрос" not in said.text:
            return None
        return Decision(intent="start_poll", confidence=0.97, details=PollWords())

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [] if "question" in slots else ["question"]

    def steps(self) -> Sequence[Step]:
        return [Step("ask", Text("Вопрос", "Question"), self._ask)]

    async def _ask(self, ctx: StepContext[Any]) -> None:
        return None

    def summary(self, ctx: StepContext[Any]) -> str:
        return f"Опрос: {ctx.slots.question}"


async def test_a_plug_in_job_has_the_llm_guess_its_own_slots_as_it_declares(
    storage: Storage, llm: FallbackLLM, vendor: FakeAnthropic
) -> None:
    sink = CollectingSink()
    vendor.push(Answer({"question": "Пицца или суши?"}))
    scenarios: list[BaseScenario] = [TrackedScenario(), Poll(), HelpScenario(), UnknownScenario()]
    async with build_core(
        load_settings(), storage, sink, scenarios=scenarios,
        catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=ManualClock(NOW),
        extractor=LLMSlotExtractor(llm),
    ) as core:  # fmt: skip
        await core.handle(Command(chat_id=6, user_id=6, text="устрой опрос: пицца или суши?"))
        done = await sink.wait_for(Done)
    assert done.text == "Опрос: Пицца или суши?"
    assert not sink.of_kind(Question)  # guessed, so never asked
    [body] = vendor.bodies
    assert str(body["system"]).startswith("You extract the question of a club poll")
    assert "booking" not in str(body["system"])
    assert "start_poll" in str(body["messages"])
