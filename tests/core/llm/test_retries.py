"""Transient failures are retried with backoff (retry-after honoured and capped)."""

from __future__ import annotations

import pytest

from core.llm import ErrorKind, LLMRequest, LLMUnavailable
from tests.core.llm.conftest import GOOD, MakeLLM, Recorder, Slots
from tests.fakes.llm import Answer, Fail, FakeAnthropic, FakeOpenAI

REQUEST = LLMRequest.ask("Extract.", "book 3 rooms", purpose="extract", user_id=1)


async def test_429_waits_for_retry_after_then_succeeds(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    anthropic_fake.push(Fail(429, retry_after=3), Answer(GOOD))
    llm = await make_llm("anthropic")

    result = await llm.complete(REQUEST, Slots)

    assert result.value.rooms == 3
    assert recorder.sleeps == [3.0]
    assert len(anthropic_fake.requests) == 2
    assert [(r.ok, r.error_kind, r.attempt) for r in recorder.records] == [
        (False, ErrorKind.RATE_LIMITED, 1),
        (True, None, 2),
    ]


async def test_retry_after_is_capped(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    openai_fake.push(Fail(429, retry_after=3600), Answer(GOOD))
    llm = await make_llm("openai", retry_after_cap_seconds=7)

    await llm.complete(REQUEST, Slots)

    assert recorder.sleeps == [7.0]


@pytest.mark.parametrize("status", [500, 529])
async def test_anthropic_server_errors_back_off_exponentially(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder, status: int
) -> None:
    anthropic_fake.push(Fail(status), Fail(status), Answer(GOOD))
    llm = await make_llm("anthropic", backoff_base_seconds=0.5)

    result = await llm.complete(REQUEST, Slots)

    assert result.provider == "anthropic"
    assert recorder.sleeps == [0.5, 1.0]
    expected = ErrorKind.OVERLOADED if status == 529 else ErrorKind.SERVER_ERROR
    assert [r.error_kind for r in recorder.records] == [expected, expected, None]


@pytest.mark.parametrize("status", [500, 503])
async def test_openai_server_errors_are_retried(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, recorder: Recorder, status: int
) -> None:
    openai_fake.push(Fail(status), Answer(GOOD))
    llm = await make_llm("openai")

    assert (await llm.complete(REQUEST, Slots)).value.intent == "book"
    assert len(openai_fake.requests) == 2 and len(recorder.sleeps) == 1


async def test_slow_answer_times_out_and_is_retried(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    anthropic_fake.push(Answer(GOOD, delay=2.0), Answer(GOOD))
    llm = await make_llm("anthropic", timeout_seconds=0.3)

    result = await llm.complete(REQUEST, Slots)

    assert result.value.rooms == 3
    assert recorder.records[0].error_kind == ErrorKind.TIMEOUT
    assert recorder.records[0].latency_ms < 1500
    assert len(anthropic_fake.requests) == 2


async def test_openai_timeout(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    openai_fake.push(Answer(GOOD, delay=2.0), Answer(GOOD))
    llm = await make_llm("openai", timeout_seconds=0.3)

    assert (await llm.complete(REQUEST, Slots)).provider == "openai"
    assert recorder.records[0].error_kind == ErrorKind.TIMEOUT


async def test_retries_are_bounded(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    anthropic_fake.push(*[Fail(529)] * 5)
    llm = await make_llm("anthropic", max_retries=2)

    with pytest.raises(LLMUnavailable) as caught:
        await llm.complete(REQUEST, Slots)

    assert len(anthropic_fake.requests) == 3
    assert len(recorder.sleeps) == 2
    assert [(f.provider, f.kind) for f in caught.value.failures] == [
        ("anthropic", ErrorKind.OVERLOADED)
    ]


async def test_client_errors_are_not_retried(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, recorder: Recorder
) -> None:
    openai_fake.push(Fail(400, message="bad schema"))
    llm = await make_llm("openai")

    with pytest.raises(LLMUnavailable) as caught:
        await llm.complete(REQUEST, Slots)

    assert len(openai_fake.requests) == 1 and recorder.sleeps == []
    assert caught.value.failures[0].kind == ErrorKind.BAD_REQUEST
    assert "bad schema" in caught.value.failures[0].message


async def test_connection_refused_is_a_connection_failure(
    make_llm: MakeLLM, recorder: Recorder
) -> None:
    llm = await make_llm("local", local={"base_url": "http://127.0.0.1:9/v1"}, max_retries=1)

    with pytest.raises(LLMUnavailable) as caught:
        await llm.complete(REQUEST, Slots)

    assert caught.value.failures[0].kind == ErrorKind.CONNECTION
    assert len(recorder.records) == 2
