"""Fake vendors, an in-memory cache and ledger, recorded sleeps and call records."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel, Field

from core.llm import (
    FallbackLLM,
    LLMCallRecord,
    LLMSettings,
    MemoryResponseCache,
    MemorySpendLedger,
    build_llm,
)
from tests.fakes.llm import FakeAnthropic, FakeOpenAI

ANTHROPIC_KEY = "sk-ant-test-SECRET-1111"
OPENAI_KEY = "sk-openai-test-SECRET-2222"
NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


class Slots(BaseModel):
    """What the fakes answer in most tests."""

    intent: str
    rooms: int = Field(ge=1)
    building: str | None = None


GOOD = {"intent": "book", "rooms": 3, "building": "main"}


class Recorder:
    def __init__(self) -> None:
        self.records: list[LLMCallRecord] = []
        self.sleeps: list[float] = []

    async def on_call(self, record: LLMCallRecord) -> None:
        self.records.append(record)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def anthropic_fake() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=ANTHROPIC_KEY) as fake:
        yield fake


@pytest.fixture
async def openai_fake() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(api_key=OPENAI_KEY) as fake:
        yield fake


@pytest.fixture
async def local_fake() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:  # a local server wants no key
        yield fake


@pytest.fixture
def cache() -> MemoryResponseCache:
    return MemoryResponseCache(clock=lambda: NOW)


@pytest.fixture
def ledger() -> MemorySpendLedger:
    return MemorySpendLedger()


MakeLLM = Callable[..., Awaitable[FallbackLLM]]


@pytest.fixture
async def make_llm(
    anthropic_fake: FakeAnthropic,
    openai_fake: FakeOpenAI,
    local_fake: FakeOpenAI,
    cache: MemoryResponseCache,
    ledger: MemorySpendLedger,
    recorder: Recorder,
) -> AsyncIterator[MakeLLM]:
    """``await make_llm("anthropic,openai", max_retries=1, ...)`` against the fakes."""
    built: list[FallbackLLM] = []

    async def make(providers: str = "anthropic,openai,local", **overrides: Any) -> FallbackLLM:
        data: dict[str, Any] = {
            "providers": providers,
            "anthropic": {
                "api_key": ANTHROPIC_KEY,
                "base_url": anthropic_fake.base_url,
                "price_input_per_mtok": 3.0,
                "price_output_per_mtok": 15.0,
            },
            "openai": {
                "api_key": OPENAI_KEY,
                "base_url": openai_fake.base_url,
                "price_input_per_mtok": 0.5,
                "price_output_per_mtok": 2.0,
            },
            "local": {"base_url": local_fake.base_url, "response_format": "json_object"},
            "timeout_seconds": 5.0,
            "max_retries": 2,
        }
        data.update(overrides)
        llm = build_llm(
            LLMSettings.model_validate(data),
            cache=cache,
            ledger=ledger,
            on_call=recorder.on_call,
            clock=lambda: NOW,
            sleep=recorder.sleep,
        )
        assert llm is not None
        built.append(llm)
        return llm

    yield make
    for llm in built:
        await llm.aclose()
