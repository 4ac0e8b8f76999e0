"""The brain end to end: real portal with quirks, real Chromium and storage, a scripted
LLM vendor (the fake Anthropic / OpenAI APIs) configured through ``LLMSettings``."""

from __future__ import annotations

from core.brain import LLMCalled
from core.commands import Answer
from core.events import BaseEvent
from core.output import Done, Question
from tests.fakes.llm import Answer as LLMAnswer
from tests.fakes.llm import FakeAnthropic, FakeOpenAI
from tests.support.brain_core import FULL, GO, KEY, TICK, CoreFactory, cmd, decided, llm_settings
from tests.support.portal import portal_bookings, set_quirks
from tests.support.sinks import CollectingSink


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
