"""The brain end to end: real portal with quirks, real Chromium and storage, a scripted
LLM vendor (the fake Anthropic / OpenAI APIs) configured through ``LLMSettings``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

from adapters.refportal import RefPortal
from core.app import build_core
from core.assist import open_assist
from core.booking.catalogue import Catalogues
from core.brain import BrainDecided, LLMCalled
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.events import BaseEvent, EventBus
from core.llm import LLMSettings
from core.manager import NLUManager
from core.output import Done, Question
from core.settings import load_settings
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.registry import all_scenarios
from storage import Storage
from tests.fakes.llm import Answer as LLMAnswer
from tests.fakes.llm import FakeAnthropic, FakeOpenAI
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.portal import portal_bookings, set_quirks
from tests.support.sinks import CollectingSink

KEY = "sk-e2e-brain"
TICK = {"role": "checkbox", "name": "Я ознакомлен(а) с правилами"}
GO = {"role": "button", "name": "Продолжить"}
FULL = "забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20"

CoreFactory = Callable[[LLMSettings], AbstractAsyncContextManager[NLUManager]]


@pytest.fixture
def events() -> list[BaseEvent]:
    return []


@pytest.fixture
def make_core(
    storage: Storage,
    sink: CollectingSink,
    clock: ManualClock,
    portal_url: str,
    pool: BrowserPool,
    events: list[BaseEvent],
) -> CoreFactory:
    """The app's wiring (as ``app.compose.open_core``) around the given LLM settings."""

    @asynccontextmanager
    async def factory(llm: LLMSettings) -> AsyncIterator[NLUManager]:
        bus = EventBus(storage.events)

        async def record(event: BaseEvent) -> None:
            events.append(event)

        bus.subscribe(record)
        account = PortalAccount(username="club", password="club-demo")
        async with open_assist(
            llm, cache=storage.cache, ledger=storage.ledger, memory=storage.brain_memory, bus=bus
        ) as assist:
            vault = CredentialVault(storage, None)
            work = PortalWork(
                pool=pool,
                system=RefPortal(portal_url),
                account=account,
                vault=vault,
                brain=assist.brain,
            )
            scenarios = all_scenarios(
                work=work,
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
                preferences=storage.preferences,
                answerer=assist.answerer,
            )
            async with build_core(
                load_settings(), storage, sink, scenarios=scenarios,
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=clock, bus=bus,
                classifier=assist.classifier, extractor=assist.extractor,
            ) as core:  # fmt: skip
                yield core

    return factory


def llm_settings(provider: str, base_url: str, **extra: Any) -> LLMSettings:
    data: dict[str, Any] = {
        "providers": provider,
        provider: {"api_key": KEY, "base_url": base_url},
        "max_retries": 1,
        "backoff_base_seconds": 0.01,
        "timeout_seconds": 10,
    }
    return LLMSettings.model_validate(data | extra)


def cmd(text: str, chat: int = 100) -> Command:
    return Command(chat_id=chat, user_id=chat, text=text)


def decided(events: list[BaseEvent]) -> list[tuple[str, str, bool | None]]:
    return [(e.source, e.action, e.resolved) for e in events if isinstance(e, BrainDecided)]


async def test_notice_is_clicked_through_then_resolved_from_memory_without_the_llm(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, events: list[BaseEvent]
) -> None:
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(LLMAnswer({"action": "click", "targets": [TICK, GO]}))
        async with make_core(llm_settings("anthropic", vendor.base_url)) as core:
            await set_quirks(portal_url, notice=True)
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            await sink.wait_for(Done, timeout=60)
            assert len(vendor.requests) == 1
            prompt = vendor.bodies[0]["messages"][0]["content"]
            assert "<untrusted_page>" in prompt and "Правила бронирования изменились" in prompt
            assert decided(events) == [("llm", "click", True)]
            assert any(isinstance(e, LLMCalled) and e.purpose == "brain" for e in events)

            await set_quirks(portal_url, notice=True)  # everyone sees the notice again
            mark = len(sink.outputs)
            await core.handle(cmd("забронируй 302 в главном послезавтра с 14 до 15"))
            await sink.wait_for(Done, after=mark, timeout=60)

        assert len(vendor.requests) == 1  # no new LLM call: the memory handled it
        assert decided(events) == [("llm", "click", True), ("memory", "click", True)]
        booked = await portal_bookings(portal_url, user="club")
        assert sorted(str(b["room_number"]) for b in booked) == ["301", "302"]
        assert not any(isinstance(o, Question) for o in sink.outputs)


async def test_full_building_gets_an_alternative_from_the_llm_and_is_booked(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, events: list[BaseEvent]
) -> None:
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(LLMAnswer({"action": "alternative", "option_id": "chaikov|261126|1800|2000"}))
        async with make_core(llm_settings("anthropic", vendor.base_url)) as core:
            await set_quirks(portal_url, full_building="main")
            await core.handle(cmd(FULL))
            done = await sink.wait_for(Done, timeout=90)

        assert len(vendor.requests) == 1
        prompt = vendor.bodies[0]["messages"][0]["content"]
        assert "chaikov|261126|1800|2000 = Корпус на Чайковского" in prompt
    assert decided(events) == [("llm", "alternative", None)]
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2 and {b["building"] for b in booked} == {"chaikovsky"}
    assert {(b["date"], b["start"], b["end"]) for b in booked} == {("2026-11-26", "18:00", "20:00")}
    assert "Корпус на Чайковского" in done.text
    assert not any(isinstance(o, Question) for o in sink.outputs)


async def test_llm_down_means_the_user_is_asked_and_the_answer_gets_past_the_notice(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, events: list[BaseEvent]
) -> None:
    async with FakeOpenAI(api_key=KEY) as vendor:  # an empty script answers 500
        async with make_core(llm_settings("openai", vendor.base_url)) as core:
            await set_quirks(portal_url, notice=True)
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            question = await sink.wait_for(Question, timeout=60)
            assert question.key == "page1"
            assert "Правила бронирования изменились" in question.text
            labels = [o.label for o in question.options]
            assert labels[0] == "Отметить «Я ознакомлен(а) с правилами» и нажать «Продолжить»"
            assert labels[-1] == "Отменить" and "Выйти" not in " ".join(labels)
            outcome = await core.answer(
                Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq,
                       option_id=question.options[0].id)
            )  # fmt: skip
            assert outcome.accepted
            await sink.wait_for(Done, timeout=60)

        assert len(vendor.requests) == 2  # one try and one retry, both 500
    assert decided(events) == [("policy", "ask_user", None), ("user", "click", True)]
    booked = await portal_bookings(portal_url, user="club")
    assert [str(b["room_number"]) for b in booked] == ["301"]
