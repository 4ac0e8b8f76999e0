"""API keys never show up in errors, reprs, logs or call records."""

from __future__ import annotations

import logging
import traceback

import pytest
import structlog

from core.llm import LLMRequest, LLMSettings, LLMUnavailable
from tests.core.llm.conftest import ANTHROPIC_KEY, OPENAI_KEY, MakeLLM, Recorder, Slots
from tests.fakes.llm import Answer, Fail, FakeAnthropic, FakeOpenAI

KEYS = (ANTHROPIC_KEY, OPENAI_KEY)


def assert_clean(text: str) -> None:
    for key in KEYS:
        assert key not in text
        assert key[-8:] not in text  # not even the tail


async def test_keys_do_not_leak_on_any_failure(
    make_llm: MakeLLM,
    anthropic_fake: FakeAnthropic,
    openai_fake: FakeOpenAI,
    recorder: Recorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A careless vendor echoes the key in its error text; others fail in every other way.
    anthropic_fake.push(Fail(429, retry_after=0), Fail(529), Answer(text="{not json"))
    anthropic_fake.push(Answer(text="still not json"))
    openai_fake.push(Fail(500), Fail(401, echo_key=True))
    llm = await make_llm("anthropic,openai", local={"base_url": "http://127.0.0.1:9/v1"})
    caplog.set_level(logging.DEBUG)

    with structlog.testing.capture_logs() as logs, pytest.raises(LLMUnavailable) as caught:
        await llm.complete(LLMRequest.ask("s", "t", user_id=1), Slots)

    exc = caught.value
    assert [f.provider for f in exc.failures] == ["anthropic", "openai"]
    assert "Incorrect API key provided" in exc.failures[1].message  # redacted, still useful
    assert_clean(str(exc))
    assert_clean(repr(exc))
    assert_clean("".join(traceback.format_exception(exc)))
    assert_clean(repr(exc.failures))
    assert_clean(repr(logs))
    assert caplog.records  # the SDKs' own debug logs were captured and checked
    assert_clean(caplog.text)
    assert_clean("".join(r.model_dump_json() for r in recorder.records))
    assert_clean(repr(llm) + repr(llm.providers))


async def test_key_from_a_wrong_configuration_does_not_leak(
    make_llm: MakeLLM, openai_fake: FakeOpenAI
) -> None:
    openai_fake.push(Fail(401, echo_key=True))
    wrong = "sk-wrong-VERY-SECRET-9999"
    llm = await make_llm("openai", openai={"api_key": wrong, "base_url": openai_fake.base_url})

    with pytest.raises(LLMUnavailable) as caught:
        await llm.complete(LLMRequest.ask("s", "t"), Slots)

    assert not openai_fake.requests[0].auth_ok
    text = str(caught.value) + repr(caught.value) + repr(caught.value.failures)
    assert wrong not in text and "VERY-SECRET" not in text


def test_settings_repr_hides_keys() -> None:
    settings = LLMSettings.model_validate(
        {
            "providers": "anthropic,openai",
            "anthropic": {"api_key": ANTHROPIC_KEY},
            "openai": {"api_key": OPENAI_KEY},
        }  # fmt: skip
    )
    assert_clean(repr(settings) + str(settings) + settings.model_dump_json())
