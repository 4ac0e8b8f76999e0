"""The helpers plugged into the core: classifier in the planner, extraction in ``_start``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from core.app import build_core
from core.assist import SlotGuess
from core.clock import ManualClock
from core.commands import Command, Lang
from core.events import EventBus, ScenarioChosen
from core.output import Done, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.site.models import Building
from scenarios.booking.vocabulary import BookingIntent
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from tests.core.brain.conftest import NOW
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
    def __init__(self, guess: SlotGuess) -> None:
        self.guess = guess
        self.texts: list[str] = []

    async def extract(
        self,
        text: str,
        *,
        intent: str,
        today: dt.date,
        lang: Lang,
        user_id: int | None,
        buildings: Sequence[Building] = (),
    ) -> SlotGuess | None:
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
    extractor = Extractor(SlotGuess(date="2026-11-30", start="18:00", end="20:00"))
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
