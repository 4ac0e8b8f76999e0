"""Fake LLM vendor servers (Anthropic Messages, OpenAI Chat Completions) for real-SDK tests.

async with FakeAnthropic(api_key="sk-test") as fake:
    fake.push(Fail(429, retry_after=1), Answer({"intent": "book"}))
    ...  # AsyncAnthropic(base_url=fake.base_url, api_key="sk-test")
    assert fake.requests[0].auth_ok
"""

from __future__ import annotations

from tests.fakes.llm.anthropic import FakeAnthropic
from tests.fakes.llm.openai import FakeOpenAI
from tests.fakes.llm.script import Answer, Fail, RecordedRequest, Step
from tests.fakes.llm.server import FakeVendorServer

__all__ = [
    "Answer",
    "Fail",
    "FakeAnthropic",
    "FakeOpenAI",
    "FakeVendorServer",
    "RecordedRequest",
    "Step",
]
