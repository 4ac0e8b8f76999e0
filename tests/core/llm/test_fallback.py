"""Provider order, corrective retries on bad output, and the all-failed outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.errors import LLMError
from core.llm import (
    LLM,
    Budget,
    ErrorKind,
    FallbackLLM,
    LLMRequest,
    LLMUnavailable,
    MemorySpendLedger,
    Price,
    RawCompletion,
)
from tests.core.llm.conftest import GOOD, NOW, MakeLLM, Recorder, Slots
from tests.fakes.llm import Answer, Fail, FakeAnthropic, FakeOpenAI

REQUEST = LLMRequest.ask("Extract.", "book 3 rooms", purpose="extract", user_id=1)


async def test_first_provider_down_second_answers(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    anthropic_fake.push(*[Fail(500)] * 3)
    openai_fake.push(Answer(GOOD))
    llm: LLM = await make_llm("anthropic,openai")  # FallbackLLM is an LLM

    result = await llm.complete(REQUEST, Slots)

    assert result.provider == "openai"
    assert len(anthropic_fake.requests) == 3 and len(openai_fake.requests) == 1
    assert [r.provider for r in recorder.records] == ["anthropic"] * 3 + ["openai"]


async def test_order_is_the_configured_one(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, openai_fake: FakeOpenAI
) -> None:
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("openai,anthropic")

    assert (await llm.complete(REQUEST, Slots)).provider == "openai"
    assert anthropic_fake.requests == []


async def test_all_down_raises_llm_unavailable(
    make_llm: MakeLLM,
    anthropic_fake: FakeAnthropic,
    openai_fake: FakeOpenAI,
    local_fake: FakeOpenAI,
) -> None:
    anthropic_fake.push(Fail(401))
    openai_fake.push(Fail(503), Fail(503))
    local_fake.push(Answer(text="not json"), Answer(text="still not json"))
    llm = await make_llm(max_retries=1)

    with pytest.raises(LLMUnavailable) as caught:
        await llm.complete(REQUEST, Slots)

    assert isinstance(caught.value, LLMError)
    assert [(f.provider, f.kind) for f in caught.value.failures] == [
        ("anthropic", ErrorKind.AUTH),
        ("openai", ErrorKind.SERVER_ERROR),
        ("local", ErrorKind.INVALID_OUTPUT),
    ]
    assert "anthropic: auth" in str(caught.value)


async def test_invalid_json_is_fed_back_once_then_accepted(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    anthropic_fake.push(Answer(text="Sure! The rooms are..."), Answer(GOOD))
    llm = await make_llm("anthropic")

    result = await llm.complete(REQUEST, Slots)

    assert result.value.rooms == 3
    retry = anthropic_fake.requests[1].body["messages"]
    assert retry[0] == {"role": "user", "content": "book 3 rooms"}
    assert retry[1] == {"role": "assistant", "content": "Sure! The rooms are..."}
    assert retry[2]["role"] == "user" and "not valid JSON" in retry[2]["content"]
    assert [(r.ok, r.error_kind) for r in recorder.records] == [
        (False, ErrorKind.INVALID_OUTPUT),
        (True, None),
    ]
    assert recorder.sleeps == []  # a corrective retry does not back off


async def test_schema_violation_is_fed_back_with_the_field(
    make_llm: MakeLLM, openai_fake: FakeOpenAI
) -> None:
    openai_fake.push(Answer({"intent": "book", "rooms": 0}), Answer(GOOD))
    llm = await make_llm("openai")

    assert (await llm.complete(REQUEST, Slots)).value.rooms == 3
    feedback = openai_fake.requests[1].body["messages"][-1]["content"]
    assert "rooms" in feedback and "greater than or equal to 1" in feedback
    assert openai_fake.requests[1].body["messages"][-2]["content"] == json.dumps(
        {"intent": "book", "rooms": 0}
    )


async def test_invalid_twice_fails_over_to_next_provider(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    anthropic_fake.push(Answer({"intent": "book"}), Answer(text="{broken"))
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic,openai")

    result = await llm.complete(REQUEST, Slots)

    assert result.provider == "openai"
    assert len(anthropic_fake.requests) == 2  # one corrective retry only
    assert [r.error_kind for r in recorder.records] == [
        ErrorKind.INVALID_OUTPUT,
        ErrorKind.INVALID_OUTPUT,
        None,
    ]


async def test_validator_rejection_is_fed_back(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    def only_booking_in_main(value: Slots) -> None:
        if value.building != "main":
            raise ValueError(f"building {value.building!r} is not allowed; use 'main'")

    anthropic_fake.push(Answer({**GOOD, "building": "annex"}), Answer({**GOOD, "building": "x"}))
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic,openai")

    result = await llm.complete(REQUEST, Slots, validate=only_booking_in_main)

    assert result.value.building == "main" and result.provider == "openai"
    feedback = anthropic_fake.requests[1].body["messages"][-1]["content"]
    assert "building 'annex' is not allowed" in feedback
    assert recorder.records[0].error_kind == ErrorKind.REJECTED


async def test_on_call_failure_does_not_break_the_answer(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    async def broken(record: object) -> None:
        raise RuntimeError("event bus down")

    anthropic_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic")
    llm._on_call = broken  # the bus the app passes in can fail

    assert (await llm.complete(REQUEST, Slots)).value.rooms == 3


class _Crashing:
    """A provider whose SDK raises something nobody expected."""

    name = "crashing"
    model = "m"
    price = Price()

    async def generate(self, request: LLMRequest, **kwargs: Any) -> RawCompletion:
        raise RuntimeError("boom")

    async def close(self) -> None:
        return None


class _Fixed(_Crashing):
    name = "fixed"

    async def generate(self, request: LLMRequest, **kwargs: Any) -> RawCompletion:
        return RawCompletion(text=json.dumps(GOOD), input_tokens=1, output_tokens=1)


async def test_unexpected_provider_exception_is_a_failure_not_a_crash(
    recorder: Recorder,
) -> None:
    budget = Budget(MemorySpendLedger(), total_usd=None, per_user_usd=None, clock=lambda: NOW)
    llm = FallbackLLM([_Crashing(), _Fixed()], budget=budget, on_call=recorder.on_call)

    result = await llm.complete(REQUEST, Slots)

    assert result.provider == "fixed"
    assert recorder.records[0].error_kind == ErrorKind.UNKNOWN
