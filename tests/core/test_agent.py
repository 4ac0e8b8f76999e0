"""The agent API on a real core and storage: a plan, then its confirmation starting one
run however often (or concurrently) it is confirmed; expired, foreign and mismatched
tokens refused with nothing started; access tokens stored only as hashes, revocable."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from typing import Any

import pytest

from core.agent import AccessTokens, AgentRuns, Confirmations, RunRequest
from core.agent.watch import RunWatch
from core.authz import Actor
from core.clock import ManualClock
from core.commands import Lang
from core.dispatcher import ChatDispatcher
from core.errors import AgentError
from core.events import EventBus
from core.site.catalogue import Catalogues
from core.store import RunStatus, ScenarioRun, new_short_id
from scenarios.booking.agent import (
    AgentSchedules,
    BookingAgent,
    BookingInfo,
    BookingPlan,
    BuildingRooms,
    FoundRooms,
    RoomsQuery,
    ScheduleRequest,
)
from scenarios.booking.schedules import ScheduleBook
from storage import Storage
from tests.core.conftest import CoreFactory
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario

USER = 77
QUERY = RoomsQuery(
    date=dt.date(2026, 11, 26), start=dt.time(18), end=dt.time(20), building="main", rooms=2
)


class FakeDesk:
    """Two rooms free in the main building; a booking run is the tracked scenario's."""

    def check(self, query: RoomsQuery, *, lang: Lang, today: dt.date) -> None:
        return None

    async def find(self, user_id: int, lang: Lang, query: RoomsQuery) -> FoundRooms:
        main = BuildingRooms(building="main", building_name="Main", free=[], suggested=["1", "2"])
        return FoundRooms(date=query.date, start=query.start, end=query.end, buildings=[main])

    def booking_run(self, plan: BookingPlan, query: RoomsQuery) -> RunRequest:
        slots = {"date": plan.date.isoformat(), "start": "18:00", "end": "20:00"}
        return RunRequest(scenario="book_rooms", slots=slots, answers={"go": "yes"})

    async def bookings(self, actor: Actor, lang: Lang) -> list[BookingInfo]:
        return []

    def cancel_run(self, booking: BookingInfo) -> RunRequest:
        raise AssertionError("not in these tests")

    def schedule_slots(self, request: ScheduleRequest, *, lang: Lang) -> dict[str, Any]:
        return {}


@pytest.fixture
def scenario() -> TrackedScenario:
    return TrackedScenario(confirm=True)  # asks «go on?»: the confirmation answers it


@pytest.fixture
async def manager(
    make_core: CoreFactory, scenario: TrackedScenario
) -> AsyncIterator[ChatDispatcher]:
    async with make_core(scenario) as opened:
        yield opened


@pytest.fixture
def agent(manager: ChatDispatcher, storage: Storage, clock: ManualClock) -> BookingAgent:
    catalogues = Catalogues.fixed(REFPORTAL_CATALOGUE)
    book = ScheduleBook(storage, bus=EventBus(storage.events), clock=clock)
    runs = AgentRuns(
        manager=manager, runs=storage.runs, users=storage.users,
        confirmations=Confirmations(storage.confirmations, clock=clock), clock=clock,
        default_timezone="Europe/Moscow",
    )  # fmt: skip
    return BookingAgent(
        runs=runs, desk=FakeDesk(), schedules=AgentSchedules(book, catalogues),
        catalogues=catalogues,
    )  # fmt: skip


async def test_confirmed_twice_and_concurrently_one_run(
    agent: BookingAgent, scenario: TrackedScenario, storage: Storage
) -> None:
    offer = await agent.book(USER, QUERY)
    assert offer.plan.rooms == ["1", "2"] and offer.run is None
    assert offer.confirm_token is not None
    assert await storage.runs.recent_for_chat(USER) == []

    first, second = await asyncio.gather(
        agent.book(USER, QUERY, confirm_token=offer.confirm_token),
        agent.book(USER, QUERY, confirm_token=offer.confirm_token),
    )
    again = await agent.book(USER, QUERY, confirm_token=offer.confirm_token)
    assert first.run is not None and first.run.state == "done"
    runs = {r.run.run_id for r in (first, second, again) if r.run is not None}
    assert runs == {first.run.run_id}
    assert scenario.executed == ["prepare", "confirm?", "finish"]  # once
    [run] = await storage.runs.recent_for_chat(USER)
    assert run.user_id == USER and run.chat_id == USER  # the user's chat: in their /status


async def test_expired_foreign_and_mismatched_tokens_start_nothing(
    agent: BookingAgent, scenario: TrackedScenario, storage: Storage, clock: ManualClock
) -> None:
    offer = await agent.book(USER, QUERY)
    token = offer.confirm_token
    with pytest.raises(AgentError, match="unknown confirm token"):
        await agent.book(USER + 1, QUERY, confirm_token=token)
    with pytest.raises(AgentError, match="another request"):
        await agent.book(USER, QUERY.model_copy(update={"rooms": 3}), confirm_token=token)
    with pytest.raises(AgentError, match="another request"):
        await agent.cancel(USER, "12", confirm_token=token)
    clock.advance(dt.timedelta(minutes=11))
    with pytest.raises(AgentError, match="expired"):
        await agent.book(USER, QUERY, confirm_token=token)
    assert await storage.runs.recent_for_chat(USER) == []
    assert scenario.executed == []


async def test_a_run_once_started_is_found_after_its_token_expired(
    agent: BookingAgent, clock: ManualClock
) -> None:
    offer = await agent.book(USER, QUERY)
    done = await agent.book(USER, QUERY, confirm_token=offer.confirm_token)
    clock.advance(dt.timedelta(hours=1))
    later = await agent.book(USER, QUERY, confirm_token=offer.confirm_token)
    assert later.run == done.run


async def test_a_run_caught_before_it_started_is_followed_not_reported_waiting(
    manager: ChatDispatcher, storage: Storage
) -> None:
    """A confirm that finds its run saved and not yet started (no step, no question) —
    as a second confirm racing the first does — follows it to its end: never «waiting»
    with no question to answer."""
    run = await storage.runs.create(
        ScenarioRun(short_id=new_short_id(), chat_id=USER, user_id=USER, scenario="book_rooms",
                    lang="ru", timezone="Europe/Moscow", command_text="", slots={}, acted=[])
    )  # fmt: skip
    assert run.status is RunStatus.COLLECTING and run.question is None
    watch = RunWatch(storage.runs, manager.runner, every=0.01)
    following = asyncio.create_task(watch.settle(run.short_id, timeout=30))
    await asyncio.sleep(0.1)
    assert not following.done()  # not «waiting»: nothing is asked
    run.status, run.summary = RunStatus.DONE, "Готово"
    await storage.runs.save(run)
    outcome = await following
    assert (outcome.state, outcome.summary) == ("done", "Готово")


async def test_access_tokens_are_stored_hashed_and_revocable(
    storage: Storage, clock: ManualClock
) -> None:
    tokens = AccessTokens(storage.access_tokens, clock=clock)
    token = await tokens.issue(USER)
    assert await tokens.user_of(token) == USER
    assert await tokens.user_of(token + "x") is None
    [stored] = await storage.access_tokens.for_user(USER)
    assert token not in stored.model_dump_json()
    assert await tokens.revoke(USER) == 1
    assert await tokens.user_of(token) is None
