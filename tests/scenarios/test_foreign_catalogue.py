"""The product on a booking system whose buildings and rules are unlike our portal's:
the NLU, the questions' buttons and the slot rules follow the catalogue, no code changes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import time

import pytest
from pydantic import SecretStr

from app.engine import build_core
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.output import Done, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.site.models import Catalogue, Room, Rules
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from storage import Storage
from tests.support.catalogues import FOREIGN_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.memory_site import MemorySite
from tests.support.sinks import CollectingSink

# The library opens 09:00–18:00, books in 15-minute steps, two hours at most, a week ahead.
CATALOGUE: Catalogue = FOREIGN_CATALOGUE.model_copy(
    update={
        "rooms": (
            Room(id="b-1", building="b", number="11", floor=1, capacity=20),
            Room(id="lib-1", building="lib", number="101", floor=1, capacity=12),
            Room(id="lib-2", building="lib", number="102", floor=1, capacity=12),
            Room(id="lib-4", building="lib", number="104", floor=1, capacity=8, horizon_days=2),
            Room(
                id="lib-3", building="lib", number="103", floor=1, capacity=40, needs_approval=True
            ),
        ),
        "rules": Rules(
            opens=time(9), closes=time(18), step_minutes=15, longest_minutes=120, horizon_days=7
        ),
    }
)


@pytest.fixture
def site() -> MemorySite:
    return MemorySite(CATALOGUE)


@pytest.fixture
async def manager(
    storage: Storage, sink: CollectingSink, clock: ManualClock, pool: BrowserPool, site: MemorySite
) -> AsyncIterator[ChatDispatcher]:
    catalogues = Catalogues.fixed(CATALOGUE)
    work = PortalWork(
        pool=pool,
        system=site,
        account=PortalAccount(username="club", password=SecretStr("club-demo")),
        vault=CredentialVault(storage, None),
    )
    scenarios = product_scenarios(storage, work, catalogues=catalogues)
    async with build_core(
        load_settings(), storage, sink, scenarios=scenarios, catalogues=catalogues, clock=clock
    ) as core:
        yield core


def cmd(text: str) -> Command:
    return Command(chat_id=100, user_id=100, text=text)


async def test_a_library_booking_is_understood_and_made(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй аудиторию в библиотеке завтра с 10 до 12"))
    done = await sink.wait_for(Done, timeout=30)
    assert done.text == "Забронирована 101 (Библиотека, вт 24.11, 10:00–12:00)"
    assert [(b.room_id, b.start, b.end) for b in site.bookings] == [("lib-1", time(10), time(12))]


async def test_the_building_question_offers_the_catalogues_buildings(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй аудиторию в главном корпусе завтра с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    # «главный» names nothing here: asked about by name, never booked in any building
    assert question.text == "Корпуса «главном» я не знаю. В каком корпусе?"
    assert [o.label for o in question.options] == ["Корпус Б", "Библиотека", "Любой"]
    accepted = await manager.answer(
        Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id="b")
    )
    assert accepted.accepted, accepted.note
    done = await sink.wait_for(Done, timeout=30)
    assert done.text == "Забронирована 11 (Корпус Б, вт 24.11, 10:00–12:00)"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("с 8 до 10", "Аудитории доступны с 09:00 до 18:00"),
        ("с 10:10 до 11", "Время должно быть кратно 15 минутам"),
        ("с 10 до 13", "Бронь не длиннее 2 часов"),
    ],
)
async def test_the_catalogues_rules_are_checked_before_the_site_is_asked(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite, text: str, reason: str
) -> None:
    await manager.handle(cmd(f"забронируй аудиторию в библиотеке завтра {text}"))
    question = await sink.wait_for(Question, timeout=30)
    assert reason in question.text
    assert site.bookings == []


async def test_a_date_beyond_the_catalogues_horizon_is_asked_again(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй аудиторию в библиотеке 10 декабря с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    assert "не дальше чем на 7 дней вперёд" in question.text
    assert site.bookings == []


async def test_a_room_that_needs_approval_is_refused_up_front_and_another_asked_for(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй 103 в библиотеке завтра с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    assert question.text == (
        "Аудиторию 103 бронируют только с подтверждением администратора, такие я не бронирую "
        "— это можно сделать на сайте. Какая аудитория?"
    )
    assert site.bookings == []
    accepted = await manager.answer(
        Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, text="102")
    )
    assert accepted.accepted, accepted.note
    done = await sink.wait_for(Done, timeout=30)
    assert done.text == "Забронирована 102 (Библиотека, вт 24.11, 10:00–12:00)"
    assert [b.room_id for b in site.bookings] == ["lib-2"]


async def test_an_unknown_room_number_is_asked_about_by_number(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    """A number the building has no room for is never dropped nor sent to the site."""
    await manager.handle(cmd("забронируй 999 в библиотеке завтра с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    assert question.text == "Аудитории 999 я не знаю. Какая аудитория?"
    assert site.bookings == []
    accepted = await manager.answer(
        Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, text="102")
    )
    assert accepted.accepted, accepted.note
    done = await sink.wait_for(Done, timeout=30)
    assert done.text == "Забронирована 102 (Библиотека, вт 24.11, 10:00–12:00)"


async def test_a_rooms_own_horizon_bounds_a_request_for_that_room(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй 104 в библиотеке 26 ноября с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    assert question.text.startswith("Бронировать можно не дальше чем на 2 дня вперёд. ")
    assert site.bookings == []


# Issue 16: a count or capacity no booking can have is asked about, never clamped or dropped.
@pytest.mark.parametrize(
    ("text", "question"),
    [
        (
            "забронируй 100000 аудиторий в библиотеке завтра с 10 до 12",
            "Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?",
        ),
        (
            "забронируй миллион аудиторий в библиотеке завтра с 10 до 12",
            "Можно забронировать до 20 аудиторий сразу. Сколько аудиторий нужно?",
        ),
        (
            "book 99 rooms in the library tomorrow 10-12",
            "I can book up to 20 rooms at once. How many rooms do you need?",
        ),
        (
            "забронируй -5 аудиторий в библиотеке завтра с 10 до 12",
            "Число аудиторий должно быть от 1 до 20. Сколько аудиторий нужно?",
        ),
    ],
)
async def test_a_room_count_out_of_bounds_is_asked_and_nothing_booked(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite, text: str, question: str
) -> None:
    await manager.handle(cmd(text))
    asked = await sink.wait_for(Question, timeout=30)
    assert asked.text == question
    assert site.bookings == []


async def test_the_answer_to_the_room_count_question_is_booked(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(cmd("забронируй 100000 аудиторий в библиотеке завтра с 10 до 12"))
    question = await sink.wait_for(Question, timeout=30)
    accepted = await manager.answer(
        Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, text="2")
    )
    assert accepted.accepted, accepted.note
    done = await sink.wait_for(Done, timeout=30)
    assert done.text.startswith("Забронированы ")
    assert len(site.bookings) == 2


@pytest.mark.parametrize(
    ("text", "question"),
    [
        (
            "забронируй аудиторию в библиотеке на 100000 человек завтра с 10 до 12",
            "В самой большой аудитории мест: 12. На сколько человек?",  # 103 needs approval
        ),
        (
            "book a room for 5000 people tomorrow 10-12",
            "The largest room seats 20 people. For how many people?",
        ),
    ],
)
async def test_a_capacity_beyond_every_room_is_asked_not_dropped(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite, text: str, question: str
) -> None:
    await manager.handle(cmd(text))
    asked = await sink.wait_for(Question, timeout=30)
    assert asked.text == question
    assert site.bookings == []


async def test_the_answer_to_the_capacity_question_is_booked(
    manager: ChatDispatcher, sink: CollectingSink, site: MemorySite
) -> None:
    await manager.handle(
        cmd("забронируй аудиторию в библиотеке на 100000 человек завтра с 10 до 12")
    )
    question = await sink.wait_for(Question, timeout=30)
    accepted = await manager.answer(
        Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, text="10")
    )
    assert accepted.accepted, accepted.note
    done = await sink.wait_for(Done, timeout=30)
    assert done.text == "Забронирована 101 (Библиотека, вт 24.11, 10:00–12:00)"
