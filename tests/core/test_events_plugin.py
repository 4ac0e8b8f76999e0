"""The events job as a plug-in, read by the real manager: its words in Russian and
English, what it never takes from the booking rules, a refusal, and a site without
events, where it is answered politely and nothing is booked."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic import SecretStr

from core.browser import BrowserContext, BrowserPool
from core.commands import Command
from core.nlu import Intent
from core.output import Question, Reply
from core.planner import ProxyPlanner
from core.scenario import StepContext, Utterance
from core.site.catalogue import Catalogues
from core.site.models import Room
from core.texts import Guide, tr
from scenarios.booking.vocabulary import BookingReader
from scenarios.events import EventSystem
from scenarios.events.errors import RoomTaken
from scenarios.events.models import Event
from scenarios.events.site import ClubLogin, EventDesk
from scenarios.events.unsupported import NoEvents
from scenarios.events.vocabulary import EventDetails, read
from scenarios.help import DeclineScenario, HelpScenario, Showcase, UnknownScenario, help_text
from storage import Storage
from tests.core.conftest import CoreFactory
from tests.support.catalogues import REFPORTAL_CATALOGUE, refportal_places
from tests.support.jobs import job_scenarios
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 25, 10, tzinfo=TZ)  # a Wednesday
THURSDAY = date(2026, 11, 26)


def said(text: str) -> tuple[str, dict[str, object], EventDetails | None]:
    found = read(Utterance(text, NOW, TZ, refportal_places()), NOW.date())
    assert found is not None, text
    details = found.details if isinstance(found.details, EventDetails) else None
    return str(found.intent), found.slots.model_dump(exclude_none=True), details


@pytest.mark.parametrize(
    "text",
    [
        "создай мероприятие «Открытое занятие по робототехнике» в четверг с 18 до 20 в 7-703",
        'create an event "Открытое занятие по робототехнике" on Thursday 18-20 in 7-703',
    ],
)
def test_a_new_event_with_its_title_time_and_room(text: str) -> None:
    intent, slots, details = said(text)
    assert intent == "create_event"
    assert slots == {"date": THURSDAY, "start": time(18), "end": time(20)}
    assert details == EventDetails(title="Открытое занятие по робототехнике", room_name="7-703")


def test_a_title_with_numbers_in_it_is_not_read_as_the_time() -> None:
    intent, slots, details = said("создай мероприятие «Турнир 18 до 20 лет» завтра с 10 до 12")
    assert intent == "create_event"
    assert slots == {"date": date(2026, 11, 26), "start": time(10), "end": time(12)}
    assert details is not None and details.title == "Турнир 18 до 20 лет"


@pytest.mark.parametrize(
    ("text", "intent", "details"),
    [
        ("мои мероприятия", "list_events", EventDetails()),
        ("my events", "list_events", EventDetails()),
        (
            "открой регистрацию на «Открытое занятие» (до 30 человек)",
            "open_registration",
            EventDetails(event="Открытое занятие", limit=30),
        ),
        (
            "open registration for robotics up to 25 people",
            "open_registration",
            EventDetails(event="robotics", limit=25),
        ),
        (
            "открой регистрацию на робототехнику до 100000 человек",  # kept, then asked
            "open_registration",
            EventDetails(event="робототехнику", limit=100000),
        ),
        (
            "сколько записалось на робототехнику",
            "count_registrations",
            EventDetails(event="робототехнику"),
        ),  # fmt: skip
        (
            "how many registered for robotics",
            "count_registrations",
            EventDetails(event="robotics"),
        ),  # fmt: skip
        (
            "отмени мероприятие «Открытое занятие»",
            "cancel_event",
            EventDetails(event="Открытое занятие"),
        ),  # fmt: skip
    ],
)
def test_the_other_commands_name_their_event(text: str, intent: str, details: EventDetails) -> None:
    assert said(text)[0] == intent
    assert said(text)[2] == details


@pytest.mark.parametrize(
    "text",
    [
        "забронируй 703 в четверг с 18 до 20",
        "отмени бронь на пятницу",
        "мои брони",
        "помощь",
        "cancel my booking for the event on Friday",
        "book a new room for our event on Thursday 18-20",
        "how many people registered for my booking",
        "какие аудитории свободны для мероприятия завтра",
        "забронируй 7-703 для мероприятия в пятницу с 18 до 20",
    ],
)
def test_booking_commands_are_not_the_events_jobs(text: str) -> None:
    assert read(Utterance(text, NOW, TZ, refportal_places()), NOW.date()) is None


def test_an_event_refused_is_a_refusal() -> None:
    assert said("не создавай мероприятие завтра")[0] == Intent.DECLINE


async def test_on_a_site_without_events_it_is_said_and_nothing_is_booked(
    make_core: CoreFactory, sink: CollectingSink, tracked: TrackedScenario
) -> None:
    showcase = Showcase([tracked, NoEvents()])
    scenarios = [
        tracked, NoEvents(), HelpScenario(showcase=showcase), DeclineScenario(), UnknownScenario()
    ]  # fmt: skip
    async with make_core(*scenarios) as manager:
        await manager.handle(
            Command(
                chat_id=3, user_id=3, text="создай мероприятие «Турнир» завтра с 18 до 20 в 301"
            )
        )
        await manager.handle(Command(chat_id=3, user_id=3, text="/help", intent="help"))
        # A refusal is one here too, not a command nobody understood.
        await manager.handle(Command(chat_id=3, user_id=3, text="не создавай мероприятие"))
    replies = sink.of_kind(Reply)
    assert replies[0].text.startswith("Этот сайт не умеет мероприятия")
    assert tracked.executed == []
    assert replies[1].text == help_text("ru", showcase)
    assert "мероприят" not in replies[1].text
    assert replies[2].text == tr(Guide.DECLINED, "ru")


class Unreached:
    """An event site the questions below never get to."""

    async def events(self, context: BrowserContext, *, username: str, password: str) -> EventSystem:
        raise AssertionError("no step runs before the question is answered")


async def test_what_cannot_be_is_asked_before_the_site_is_touched(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    desk = EventDesk(pool=BrowserPool(max_contexts=1), site=Unreached(), login=ClubLogin())
    scenarios = [
        *job_scenarios("events", storage, desk, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE)),
        UnknownScenario(),
    ]
    async with make_core(*scenarios) as manager:
        text = "открой регистрацию на робототехнику до 100000 человек"
        await manager.handle(Command(chat_id=4, user_id=4, text=text))
        limit = await sink.wait_for(Question)
        text = "создай мероприятие «Турнир» завтра с 18 до 20 в 9-999"
        await manager.handle(Command(chat_id=5, user_id=5, text=text))
        room = await sink.wait_for(Question, after=sink.outputs.index(limit) + 1)
    assert limit.text == (
        "Лимит должен быть от 1 до 10000 человек. Сколько человек можно записать?"
    )
    assert room.text == (
        "Аудитории 9-999 на сайте нет. В какой аудитории? Напишите номер, например 7-703."
    )
    assert [o.label for o in room.options] == ["Без аудитории"]


async def test_a_room_number_of_several_buildings_is_asked_about_not_denied(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    desk = EventDesk(pool=BrowserPool(max_contexts=1), site=Unreached(), login=ClubLogin())
    scenarios = [
        *job_scenarios("events", storage, desk, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE)),
        UnknownScenario(),
    ]
    async with make_core(*scenarios) as manager:
        text = "создай мероприятие «Турнир» завтра с 18 до 20 в 201"
        await manager.handle(Command(chat_id=8, user_id=8, text=text))
        asked = await sink.wait_for(Question)
    named = sorted(
        f"{r.building}-{r.number}" for r in REFPORTAL_CATALOGUE.rooms if r.number == "201"
    )
    assert len(named) > 1
    assert asked.text.startswith("Аудитория 201 есть в нескольких корпусах: ")
    shown = asked.text.split(": ", 1)[1].split(". ")[0].split(", ")
    assert set(shown) <= set(named) and len(shown) == min(len(named), 4)


DENIED = [
    "не хочу создавать мероприятие «Лекция» завтра с 18 до 20 в 7-703",
    "не надо открывать регистрацию на «Лекция»",
    'I don\'t want to create an event "Talk" tomorrow 18-20 in 7-703',
]


@pytest.mark.parametrize("text", DENIED)
def test_a_denied_event_command_is_read_as_a_refusal(text: str, storage: Storage) -> None:
    desk = EventDesk(pool=BrowserPool(max_contexts=1), site=Unreached(), login=ClubLogin())
    catalogues = Catalogues.fixed(REFPORTAL_CATALOGUE)
    scenarios = [
        *job_scenarios("events", storage, desk, catalogues=catalogues),
        DeclineScenario(),
    ]
    # the booking job reads first, as the registry orders the jobs
    planner = ProxyPlanner(scenarios, readers=[BookingReader(), *scenarios])
    places = refportal_places()
    understood = planner.understand(Utterance(text, NOW, TZ, places))
    assert understood.intent == Intent.DECLINE, understood
    # the same command said plainly is the events job's: the refusal above is the denial's
    plain = text.replace("не хочу создавать", "создай").replace("не надо открывать", "открой")
    plain = plain.replace("I don't want to create", "create")
    understood = planner.understand(Utterance(plain, NOW, TZ, places))
    assert understood.intent in {"create_event", "open_registration"}


async def test_a_denied_event_is_declined_and_nothing_runs(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    desk = EventDesk(pool=BrowserPool(max_contexts=1), site=Unreached(), login=ClubLogin())
    scenarios = [
        *job_scenarios("events", storage, desk, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE)),
        DeclineScenario(),
        UnknownScenario(),
    ]
    async with make_core(*scenarios) as manager:
        await manager.handle(Command(chat_id=6, user_id=6, text=DENIED[0]))
        reply = await sink.wait_for(Reply)
    assert reply.text == tr(Guide.DECLINED, "ru")
    assert list(await storage.runs.recent_for_chat(6)) == []  # no run was started


class TakenRooms:
    """Indico's events as far as this test goes: every room is taken."""

    async def create_event(
        self, *, title: str, day: date, start: time, end: time, room_id: str | None, mark: str
    ) -> Event:
        raise RoomTaken(f"{room_id} is taken")

    async def find_event(self, mark: str) -> Event | None:
        return None

    async def upcoming_events(self) -> list[Event]:
        raise AssertionError("not asked here")

    async def open_registration(self, event_id: str, limit: int | None) -> None:
        raise AssertionError("not asked here")

    async def registrations(self, event_id: str) -> int:
        raise AssertionError("not asked here")

    async def delete_event(self, event_id: str) -> None:
        raise AssertionError("not asked here")


class TakenSite:
    async def events(self, context: BrowserContext, *, username: str, password: str) -> EventSystem:
        return TakenRooms()


class FreeOnTheirOwnContext:
    """The booking job's free rooms, read as it reads them: on a context of the run's own."""

    def __init__(self, pool: BrowserPool) -> None:
        self._pool = pool
        self.read = 0

    async def near(
        self, ctx: StepContext[Any], room: Room, day: date, start: time, end: time
    ) -> list[Room]:
        async with self._pool.context():
            self.read += 1
        return [r for r in REFPORTAL_CATALOGUE.rooms if r.building == room.building][:2]

    async def release(self, run_id: str) -> None:
        """Nothing is held between reads: each gives its context back at once."""


async def test_a_taken_room_is_asked_about_with_one_browser_context(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    """A run held its events' context while the free rooms asked for another: with a pool
    of one (``BROWSER__MAX_CONTEXTS=1``) it waited for itself for ever."""
    async with BrowserPool(max_contexts=1) as pool:
        login = ClubLogin(username="club", password=SecretStr("club-demo"))
        free = FreeOnTheirOwnContext(pool)
        desk = EventDesk(pool=pool, site=TakenSite(), login=login)
        catalogues = Catalogues.fixed(REFPORTAL_CATALOGUE)
        scenarios = [
            *job_scenarios("events", storage, desk, free, catalogues=catalogues),
            UnknownScenario(),
        ]
        async with make_core(*scenarios) as manager:
            text = "создай мероприятие «Турнир» завтра с 18 до 20 в main-301"
            await manager.handle(Command(chat_id=7, user_id=7, text=text))
            asked = await sink.wait_for(Question, timeout=60)
    assert asked.text.startswith("main-301 в это время занята")
    assert free.read == 1
    assert [o.label for o in asked.options][-1] == "Без аудитории"


def test_an_apostrophe_is_not_a_quote_that_cuts_the_title() -> None:
    quoted = said("create an event 'Chess club' on Thursday 18-20 in 7-703")[2]
    assert quoted is not None and quoted.title == "Chess club"
    # 'It's fine' is not the title «It»: no title is read, so it is asked for
    cut = said("create an event 'It's fine' on Thursday 18-20 in 7-703")[2]
    assert cut is not None and cut.title is None
