"""Each provider sends the vendor's structured-output request and parses the answer."""

from __future__ import annotations

import json

from core.llm import LLMRequest
from tests.core.llm.conftest import ANTHROPIC_KEY, GOOD, MakeLLM, Recorder, Slots
from tests.fakes.llm import Answer, FakeAnthropic, FakeOpenAI

REQUEST = LLMRequest.ask(
    "Extract booking slots.", "book 3 rooms in main", purpose="extract", user_id=7
)


async def test_anthropic_uses_one_forced_tool(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder
) -> None:
    anthropic_fake.push(Answer(GOOD, input_tokens=120, output_tokens=30))
    llm = await make_llm("anthropic")

    result = await llm.complete(REQUEST, Slots)

    assert result.value == Slots(intent="book", rooms=3, building="main")
    assert (result.provider, result.model, result.cached) == (
        "anthropic",
        "claude-haiku-4-5",
        False,
    )
    (sent,) = anthropic_fake.requests
    # anthropic 2.x sends ``api_key`` as a Bearer token; the fake checks it matches.
    assert sent.auth_ok and sent.auth_header == "authorization"
    assert ANTHROPIC_KEY not in json.dumps(sent.headers)
    assert sent.headers["anthropic-version"]
    assert sent.headers.get("x-stainless-retry-count") == "0"
    body = sent.body
    assert body["system"] == "Extract booking slots."
    assert body["messages"] == [{"role": "user", "content": "book 3 rooms in main"}]
    assert body["max_tokens"] == 1024
    (tool,) = body["tools"]
    assert tool["name"] == "Slots"
    assert tool["input_schema"] == Slots.model_json_schema()
    assert body["tool_choice"] == {
        "type": "tool",
        "name": "Slots",
        "disable_parallel_tool_use": True,
    }
    (record,) = recorder.records
    assert record.ok and record.purpose == "extract" and record.user_id == 7


async def test_openai_uses_json_schema_response_format(
    make_llm: MakeLLM, openai_fake: FakeOpenAI
) -> None:
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("openai")

    result = await llm.complete(REQUEST, Slots)

    assert result.value.rooms == 3 and result.provider == "openai"
    (sent,) = openai_fake.requests
    assert sent.auth_ok and sent.auth_header == "authorization"
    body = sent.body
    assert body["model"] == "gpt-4.1-mini"
    assert body["messages"][0] == {"role": "system", "content": "Extract booking slots."}
    assert body["messages"][1] == {"role": "user", "content": "book 3 rooms in main"}
    assert body["max_completion_tokens"] == 1024 and "max_tokens" not in body
    assert body["temperature"] == 0.0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Slots", "schema": Slots.model_json_schema(), "strict": False},
    }


async def test_openai_strict_mode_requires_every_property(
    make_llm: MakeLLM, openai_fake: FakeOpenAI
) -> None:
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("openai", openai={"api_key": "k", "base_url": openai_fake.base_url,
                                           "strict": True})  # fmt: skip
    openai_fake.api_key = "k"

    await llm.complete(REQUEST, Slots)

    spec = openai_fake.requests[0].body["response_format"]["json_schema"]
    assert spec["strict"] is True
    assert spec["schema"]["additionalProperties"] is False
    assert sorted(spec["schema"]["required"]) == ["building", "intent", "rooms"]


async def test_local_server_json_object_fallback_puts_schema_in_prompt(
    make_llm: MakeLLM, local_fake: FakeOpenAI
) -> None:
    local_fake.push(Answer(text="```json\n" + json.dumps(GOOD) + "\n```", input_tokens=50))
    llm = await make_llm("local")

    result = await llm.complete(REQUEST, Slots)

    assert result.value.building == "main"
    assert (result.provider, result.model) == ("local", "qwen2.5:7b-instruct")
    assert result.cost_usd == 0.0
    body = local_fake.requests[0].body
    assert body["response_format"] == {"type": "json_object"}
    assert json.dumps(Slots.model_json_schema()) in body["messages"][0]["content"]
    assert body["max_tokens"] == 1024 and "max_completion_tokens" not in body


async def test_local_server_with_json_schema_support(
    make_llm: MakeLLM, local_fake: FakeOpenAI
) -> None:
    local_fake.push(Answer(GOOD))
    llm = await make_llm("local", local={"base_url": local_fake.base_url, "model": "llama3"})

    result = await llm.complete(REQUEST, Slots)

    assert result.value.intent == "book"
    body = local_fake.requests[0].body
    assert body["model"] == "llama3"
    assert body["response_format"]["type"] == "json_schema"
