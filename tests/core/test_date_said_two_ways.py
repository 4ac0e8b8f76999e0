"""A date said two ways is one date or a question (issue 65, item 7), as a user meets it:
a weekday that disagrees with the date said with it is asked about with both dates as
buttons, in every job that reads dates, and the tapped one is the run's date. No step
runs here: the sites below are never reached (today is Monday 2026-11-23)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from pydantic import SecretStr

from core.browser import BrowserContext, BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.output import Question
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.events import EventSystem
from scenarios.events.site import ClubLogin, EventDesk
from storage import Storage
from storage.process import free_port
from tests.core.conftest import CoreFactory
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink


class Unreached:
    """An event site no question below gets to."""

    async def events(self, context: BrowserContext, *, username: str, password: str) -> EventSystem:
        raise AssertionError("no step runs before the questions are answered")


@dataclass
class Chat:
    manager: ChatDispatcher
    sink: CollectingSink
    storage: Storage
    chat: int = 7

    async def say(self, text: str) -> Question:
        mark = len(self.sink.outputs)
        await self.manager.handle(Command(chat_id=self.chat, user_id=self.chat, text=text))
        return await self.sink.wait_for(Question, after=mark)

    async def tap(self, question: Question, option_id: str) -> Question:
        mark = len(self.sink.outputs)
        outcome = await self.manager.answer(
            Answer(
                chat_id=self.chat,
                user_id=self.chat,
                run_id=question.run_id,
                seq=question.seq,
                option_id=option_id,
            )
        )
        assert outcome.accepted, outcome.note
        return await self.sink.wait_for(Question, after=mark)

    async def slots(self, question: Question) -> dict[str, object]:
        assert question.run_id is not None
        run = await self.storage.runs.get(question.run_id)
        assert run is not None
        return run.slots


@pytest.fixture
async def chat(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage, clock: ManualClock
) -> AsyncIterator[Chat]:
    catalogues = Catalogues.fixed(REFPORTAL_CATALOGUE)
    async with BrowserPool(max_contexts=1) as pool:
        work = PortalWork(
            pool=pool,
            # nothing listens: no step runs
            system=refportal_system(f"http://127.0.0.1:{free_port()}"),
            account=PortalAccount(username="club", password=SecretStr("club-demo")),
            vault=CredentialVault(storage, None),
        )
        desk = EventDesk(pool=pool, site=Unreached(), login=ClubLogin())
        scenarios = product_scenarios(storage, work, desk, catalogues=catalogues, clock=clock)
        async with make_core(*scenarios) as manager:
            yield Chat(manager, sink, storage)


async def test_a_weekday_against_its_date_is_asked_with_both_and_the_tapped_one_is_booked(
    chat: Chat,
) -> None:
    asked = await chat.say("забронируй аудиторию в среду 1 декабря с 10 до 12")
    assert asked.key == "date"
    assert asked.text == "День недели и дата не совпадают: вт 01.12 или ср 02.12?"
    assert [(o.id, o.label) for o in asked.options] == [
        ("2026-12-01", "вт 01.12"),
        ("2026-12-02", "ср 02.12"),
    ]
    following = await chat.tap(asked, "2026-12-02")
    assert following.key == "building"  # the booking goes on, on the tapped day
    assert (await chat.slots(following))["date"] == "2026-12-02"


async def test_the_same_in_english_with_the_date_first(chat: Chat) -> None:
    asked = await chat.say("book a room on November 30, Tuesday, 10-12")
    assert asked.key == "date"
    assert asked.text == "The weekday and the date do not match: Mon 30 Nov or Tue 01 Dec?"
    assert [o.id for o in asked.options] == ["2026-11-30", "2026-12-01"]
    following = await chat.tap(asked, "2026-11-30")
    assert following.key == "building"
    assert (await chat.slots(following))["date"] == "2026-11-30"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("забронируй аудиторию во вторник 1 декабря с 10 до 12", "2026-12-01"),
        ("book a room on Monday, November 30 10-12", "2026-11-30"),
        ("забронируй аудиторию пн 30.11 с 10 до 12", "2026-11-30"),
    ],
)
async def test_a_weekday_that_agrees_asks_nothing_of_the_date(
    chat: Chat, text: str, day: str
) -> None:
    asked = await chat.say(text)
    assert asked.key == "building"  # the date is not asked: the date wins
    assert (await chat.slots(asked))["date"] == day


async def test_an_event_on_a_disputed_day_is_asked_the_same_way(chat: Chat) -> None:
    asked = await chat.say("создай мероприятие «Турнир» 1 декабря, в среду, с 18 до 20")
    assert asked.key == "date"
    assert asked.text == "День недели и дата не совпадают: вт 01.12 или ср 02.12?"
    assert [o.id for o in asked.options] == ["2026-12-01", "2026-12-02"]
    following = await chat.tap(asked, "2026-12-01")
    assert following.key == "room_name"  # the event goes on: its room is asked next
    assert (await chat.slots(following))["date"] == "2026-12-01"


async def test_a_schedule_whose_first_day_is_disputed_asks_which_weekday(chat: Chat) -> None:
    asked = await chat.say("бронируй каждую неделю в среду 1 декабря с 10 до 12")
    assert asked.key == "recurrence"  # the tapped day names the schedule's weekday
    assert asked.text == "День недели и дата не совпадают: вт 01.12 или ср 02.12?"
    assert [o.id for o in asked.options] == ["2026-12-01", "2026-12-02"]
    following = await chat.tap(asked, "2026-12-01")
    assert following.key == "building"
    assert (await chat.slots(following))["recurrence"] == {"freq": "weekly", "weekdays": ["tue"]}


async def test_a_booking_to_cancel_on_a_disputed_day_is_asked_about_first(chat: Chat) -> None:
    asked = await chat.say("отмени бронь в среду 1 декабря")
    assert asked.key == "date"  # asked before the list is narrowed to either day
    assert asked.text == "День недели и дата не совпадают: вт 01.12 или ср 02.12?"
    assert [o.id for o in asked.options] == ["2026-12-01", "2026-12-02"]


async def test_a_weekday_typed_to_the_question_means_its_offered_day(chat: Chat) -> None:
    asked = await chat.say("забронируй аудиторию в среду 1 декабря с 10 до 12")
    mark = len(chat.sink.outputs)
    await chat.manager.handle(Command(chat_id=chat.chat, user_id=chat.chat, text="в среду"))
    following = await chat.sink.wait_for(Question, after=mark)
    assert following.key == "building"
    # the Wednesday offered (2 Dec), not the nearest one (25 Nov)
    assert (await chat.slots(following))["date"] == "2026-12-02"
    assert asked.run_id == following.run_id


def test_the_events_reading_of_a_disputed_day_is_a_question() -> None:
    from datetime import date

    from core.scenario import Utterance
    from scenarios.events.vocabulary import read
    from tests.support.reading import NOW, PLACES, TZ

    text = "create an event «Chess night» on Wednesday, December 1 18-20"
    decision = read(Utterance(text, NOW, TZ, PLACES), NOW.date())
    assert decision is not None and decision.intent == "create_event"
    assert decision.slots.date is None
    assert decision.slots.date_options == [date(2026, 12, 1), date(2026, 12, 2)]
    assert decision.missing == ["date"] and decision.next_action == "clarify"
    assert decision.clarification_question == (
        "The weekday and the date do not match: Tue 01 Dec or Wed 02 Dec?"
    )
