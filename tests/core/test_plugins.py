"""A scenario the rule parser has never heard of plugs in: it recognises its own
commands (``BaseScenario.recognise``), its own words reach its run's slots
(``Decision.details``), and the LLM classifier is offered its intent with its
description. Through the real manager on real storage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from app.engine import build_core
from core.clock import ManualClock
from core.commands import Command, Lang
from core.nlu import Decision, Intent
from core.output import Done, Reply
from core.planner import ProxyPlanner
from core.scenario import BaseScenario, InstantScenario, Step, StepContext, StepScenario, Utterance
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.texts import Text
from scenarios.help import HelpScenario, Showcase, UnknownScenario
from storage import Storage
from tests.core.brain.conftest import NOW
from tests.core.conftest import CoreFactory
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink


class PollWords(BaseModel):
    question: str | None = None


class PollSlots(BaseModel):
    question: str
    date: str | None = None


class Poll(StepScenario[PollSlots]):
    """«устрой опрос "Пицца или суши?" в четверг»: a job core knows nothing of."""

    name = "start_poll"
    intents: ClassVar[frozenset[str]] = frozenset({"start_poll"})
    descriptions: ClassVar[Mapping[str, str]] = {"start_poll": "ask the club a question"}
    acting: ClassVar[frozenset[str]] = frozenset({"start_poll"})
    slot_model = PollSlots
    title_text = Text("Опрос", "Poll")

    def about(self, lang: Lang) -> str:
        return "Я устраиваю опросы клуба."

    def examples(self, lang: Lang) -> Sequence[str]:
        return ['устрой опрос "Пицца или суши?" в четверг']

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        if "опрос" not in said.text:
            return None
        question = said.text.split('"')[1] if '"' in said.text else None
        return decision.model_copy(
            update={"intent": "start_poll", "confidence": 0.97,
                    "details": PollWords(question=question)}
        )  # fmt: skip

    def steps(self) -> Sequence[Step]:
        return [Step("ask", Text("Вопрос", "Question"), self._ask)]

    async def _ask(self, ctx: StepContext[Any]) -> None:
        return None

    def summary(self, ctx: StepContext[Any]) -> str:
        return f"Опрос: {ctx.slots.question} ({ctx.slots.date})"


class Greeter(InstantScenario):
    name = "greet"
    intents: ClassVar[frozenset[str]] = frozenset({"greet"})
    descriptions: ClassVar[Mapping[str, str]] = {"greet": "say hello"}

    async def respond(self, command: Command, decision: Decision) -> str:
        return "hello"


async def test_a_plug_in_takes_its_own_command_from_the_booking_rules(
    make_core: CoreFactory, sink: CollectingSink, tracked: TrackedScenario
) -> None:
    async with make_core(tracked, Poll(), HelpScenario(), UnknownScenario()) as manager:
        # the booking rules read a date and a time here, and would book a room
        await manager.handle(
            Command(chat_id=7, user_id=7, text='устрой опрос "Пицца или суши?" завтра с 18 до 20')
        )
        done = await sink.wait_for(Done)
    assert done.text == "Опрос: Пицца или суши? (2026-11-24)"
    assert tracked.executed == []


async def test_without_the_plug_in_the_same_words_are_not_its(
    make_core: CoreFactory, sink: CollectingSink, tracked: TrackedScenario
) -> None:
    async with make_core(tracked, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(Command(chat_id=7, user_id=7, text="устрой опрос про пиццу"))
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply) and "не понял" in reply.text


class Recording:
    def __init__(self, answer: str | None) -> None:
        self.answer = answer
        self.offered: list[dict[str, str]] = []

    async def classify(self, text: str, intents: Mapping[str, str]) -> str | None:
        self.offered.append(dict(intents))
        return self.answer


async def test_the_classifier_is_offered_every_registered_intent_with_its_meaning(
    storage: Storage,
) -> None:
    sink = CollectingSink()
    classifier = Recording("greet")
    scenarios: list[BaseScenario] = [
        TrackedScenario(),
        Poll(),
        Greeter(),
        HelpScenario(),
        UnknownScenario(),
    ]
    async with build_core(
        load_settings(), storage, sink, scenarios=scenarios,
        catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=ManualClock(NOW),
        classifier=classifier,
    ) as core:  # fmt: skip
        await core.handle(Command(chat_id=8, user_id=8, text="приветик всем"))
        await sink.wait_for(Reply)

    offered = classifier.offered[0]
    assert offered["start_poll"] == "ask the club a question"
    assert offered["greet"] == "say hello"
    assert set(offered) == {"book_rooms", "start_poll", "greet", "help", "unknown"}
    assert sink.of_kind(Reply)[0].text == "hello"


async def test_a_negated_command_is_never_classified_as_one_that_acts() -> None:
    classifier = Recording(None)
    planner = ProxyPlanner([Poll(), Greeter(), UnknownScenario()], classifier=classifier)
    unsure = Decision(intent=Intent.UNKNOWN, confidence=0.0, negated=True)
    await planner.choose("не надо никаких опросов", unsure)
    await planner.choose("надо бы опросить", unsure.model_copy(update={"negated": False}))
    assert set(classifier.offered[0]) == {"greet", "unknown"}
    assert set(classifier.offered[1]) == {"start_poll", "greet", "unknown"}


def test_a_plug_ins_details_are_its_runs_slots() -> None:
    decision = Decision(
        intent="start_poll", confidence=0.9, details=PollWords(question="Когда собираемся?")
    )
    assert Poll().initial_slots(decision) == {"question": "Когда собираемся?"}
    assert decision.to_json()["slots"] == {"question": "Когда собираемся?"}
    assert decision.intent != Intent.UNKNOWN


async def test_help_and_the_unknown_reply_offer_what_the_registered_plug_ins_declare(
    make_core: CoreFactory, sink: CollectingSink, tracked: TrackedScenario
) -> None:
    showcase = Showcase([tracked, Poll()])
    scenarios = [
        tracked,
        Poll(),
        HelpScenario(showcase=showcase),
        UnknownScenario(showcase=showcase),
    ]
    async with make_core(*scenarios) as manager:
        await manager.handle(Command(chat_id=9, user_id=9, text="/help", intent="help"))
        await manager.handle(Command(chat_id=9, user_id=9, text="что-нибудь про пиццу или суши"))
    helped, unknown = (r.text for r in sink.of_kind(Reply))
    assert helped.startswith("Я бронирую аудитории")  # what each job says, in order
    assert "\n\nЯ устраиваю опросы клуба.\n\nЧто можно написать:\n" in helped
    assert '• устрой опрос "Пицца или суши?" в четверг' in helped
    assert '• устрой опрос "Пицца или суши?" в четверг' in unknown  # the closest example


async def test_help_lists_nothing_of_a_job_not_registered(
    make_core: CoreFactory, sink: CollectingSink, tracked: TrackedScenario
) -> None:
    showcase = Showcase([tracked])
    async with make_core(tracked, HelpScenario(showcase=showcase), UnknownScenario()) as manager:
        await manager.handle(Command(chat_id=9, user_id=9, text="/help", intent="help"))
    [helped] = (r.text for r in sink.of_kind(Reply))
    assert "Я устраиваю опросы" not in helped and "устрой опрос" not in helped
    assert "• забронируй 3 аудитории рядом в этот четверг с 18 до 20" in helped
