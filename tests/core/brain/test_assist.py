"""The LLM helpers of the NLU: intent classification, slot gaps, unknown messages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from core.assist import LLMAnswerer, LLMIntentClassifier, LLMSlotExtractor, fill_slots
from core.commands import Command, Lang
from core.guessing import Guessing
from core.llm import FallbackLLM
from core.nlu import Decision, Intent, Slots
from core.site.models import Building
from scenarios.booking import BookRooms
from scenarios.booking.guess import BookingGuess
from scenarios.booking.vocabulary import BookingIntent, parse
from scenarios.help import Showcase, UnknownScenario
from tests.core.brain.conftest import NOW
from tests.fakes.llm import Answer, Fail, FakeAnthropic
from tests.support.catalogues import refportal_places
from tests.support.scenarios import TrackedScenario

TZ = ZoneInfo("Europe/Moscow")
TODAY = dt.date(2026, 11, 23)


async def test_classifier_returns_only_an_offered_intent(
    llm: FallbackLLM, vendor: FakeAnthropic
) -> None:
    classifier = LLMIntentClassifier(llm)
    vendor.push(Answer({"intent": "book_rooms"}))
    everything = {intent.value: intent.value for intent in (*BookingIntent, *Intent)}
    assert await classifier.classify("нужна комната", everything) == BookingIntent.BOOK_ROOMS

    vendor.push(Answer({"intent": "order_pizza"}), Answer({"intent": "weather"}))
    assert await classifier.classify("закажи пиццу", everything) is None

    offered = {"list_bookings": "show the user's bookings", "help": "what can you do"}
    vendor.push(Answer({"intent": "cancel_booking"}), Answer({"intent": "help"}))
    assert await classifier.classify("что ты умеешь", offered) == Intent.HELP
    assert "must be one of" in vendor.bodies[-1]["messages"][-1]["content"]

    vendor.push(Fail(500))
    assert await classifier.classify("что-то", everything) is None


class Scripted:
    def __init__(self, guess: BookingGuess | None) -> None:
        self.guess = guess
        self.calls = 0

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
        self.calls += 1
        return self.guess


BOOKING = BookRooms.guessable  # what the booking scenario lets an LLM guess, and how
GUESSING = BookRooms.guessing


async def fill(extractor: Scripted, text: str, intent: str = BookingIntent.BOOK_ROOMS) -> Decision:
    decision = parse(text, now=NOW, tz=TZ, places=refportal_places())
    return await fill_slots(
        extractor,
        text,
        decision,
        intent,
        guessing=GUESSING,
        required=BOOKING,
        now=NOW,
        tz=TZ,
        user_id=1,
    )


async def test_extraction_fills_gaps_but_never_overwrites_what_the_rules_found() -> None:
    lying = Scripted(
        BookingGuess(date="2026-11-27", start="09:00", end="11:00", building="lab", rooms=5)
    )
    decision = await fill(lying, "забронируй 2 аудитории в главном в четверг с 18")
    assert lying.calls == 1
    slots = decision.slots
    assert (slots.date, slots.start, slots.building, slots.rooms) == (
        dt.date(2026, 11, 26), dt.time(18), "main", 2,
    )  # fmt: skip
    assert slots.end == dt.time(11)  # the only gap
    assert decision.missing == [] and decision.next_action == "execute"


async def test_invalid_guesses_are_dropped() -> None:
    junk = Scripted(
        BookingGuess(
            date="next thursday",
            start="25:00",
            end="20:00",
            building="moon",
            room=["DROP TABLE"],
            capacity=-3,
            rooms=99,
        )  # fmt: skip
    )
    decision = await fill(junk, "забронируй аудиторию в четверг")
    assert decision.slots.start is None and decision.slots.building is None
    assert decision.slots.end == dt.time(20) and decision.slots.room is None
    assert decision.slots.capacity is None and decision.slots.rooms == 1
    assert decision.missing == ["start"]


async def test_no_extraction_when_nothing_is_missing_or_no_extractor() -> None:
    extractor = Scripted(BookingGuess(building="lab"))
    decision = await fill(extractor, "забронируй 301 в главном в четверг с 18 до 20")
    assert extractor.calls == 0 and decision.slots.building == "main"
    bare = parse("хочу комнату", now=NOW, tz=TZ, places=refportal_places())
    same = await fill_slots(None, "хочу комнату", bare, BookingIntent.BOOK_ROOMS,
                            guessing=GUESSING, required=BOOKING, now=NOW, tz=TZ,
                            user_id=1)  # fmt: skip
    assert same == bare
    # a scenario that lets nothing be guessed is never asked about
    plugged = await fill_slots(extractor, "хочу комнату", bare, "start_poll", guessing=None,
                               required=(), now=NOW, tz=TZ, user_id=1)  # fmt: skip
    assert plugged == bare and extractor.calls == 0


async def test_text_the_rules_did_not_understand_gets_its_slots_from_the_llm(
    llm: FallbackLLM, vendor: FakeAnthropic
) -> None:
    vendor.push(Answer({"date": "2026-11-26", "start": "18:00", "end": "20:00", "weekdays": None}))
    text = "нам бы где-нибудь посидеть послезавтрашним послезавтра вечерком"
    decision = parse(text, now=NOW, tz=TZ, places=refportal_places())
    filled = await fill_slots(LLMSlotExtractor(llm), text, decision, BookingIntent.BOOK_ROOMS,
                              guessing=GUESSING, required=BOOKING, now=NOW, tz=TZ,
                              user_id=1)  # fmt: skip
    assert filled.intent == BookingIntent.BOOK_ROOMS and filled.missing == []
    assert filled.slots == Slots(date=dt.date(2026, 11, 26), start=dt.time(18), end=dt.time(20),
                                 rooms=1)  # fmt: skip
    assert "Today is 2026-11-23" in str(vendor.bodies[0]["system"])


async def test_unknown_gets_a_short_answer_plus_capabilities_with_an_llm(
    llm: FallbackLLM, vendor: FakeAnthropic
) -> None:
    command = Command(chat_id=1, user_id=1, text="какая сегодня погода?")
    decision = parse(command.text, now=NOW, tz=TZ, places=refportal_places())
    vendor.push(Answer({"answer": "Погоду я не знаю."}))
    showcase = Showcase([TrackedScenario()])
    unknown = UnknownScenario(answerer=LLMAnswerer(llm), showcase=showcase)
    said = await unknown.respond(command, decision)
    assert said.startswith("Погоду я не знаю.\n\nЯ бронирую аудитории") and "/help" in said
    # the LLM is told what the registered jobs do, in their own words
    assert "- I book rooms on the university portal" in str(vendor.bodies[0]["system"])

    vendor.push(Fail(500))
    fallback = await unknown.respond(command, decision)
    assert fallback == await UnknownScenario(showcase=showcase).respond(command, decision)
    assert "•" in fallback  # the closest examples
    assert "Всё, что я умею: /help" in fallback
