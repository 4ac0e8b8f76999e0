"""Cache, cost and budgets."""

from __future__ import annotations

from datetime import date

import pytest

from core.llm import (
    ErrorKind,
    LLMBudgetExceeded,
    LLMRequest,
    MemoryResponseCache,
    MemorySpendLedger,
)
from tests.core.llm.conftest import GOOD, NOW, MakeLLM, Recorder, Slots
from tests.fakes.llm import Answer, Fail, FakeAnthropic, FakeOpenAI

TODAY = NOW.date()


def request(user_id: int | None = 1, text: str = "book 3 rooms") -> LLMRequest:
    return LLMRequest.ask("Extract.", text, purpose="extract", user_id=user_id)


async def test_cost_is_tokens_times_price_per_million(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, ledger: MemorySpendLedger, recorder: Recorder
) -> None:
    anthropic_fake.push(Answer(GOOD, input_tokens=1000, output_tokens=200))
    llm = await make_llm("anthropic")  # $3 in, $15 out per million

    result = await llm.complete(request(user_id=5), Slots)

    expected = 1000 * 3.0 / 1e6 + 200 * 15.0 / 1e6  # 0.006
    assert result.cost_usd == pytest.approx(expected)
    assert (result.input_tokens, result.output_tokens) == (1000, 200)
    (record,) = recorder.records
    assert record.cost_usd == pytest.approx(expected) and record.latency_ms > 0
    assert await ledger.spent(user_id=None, day=TODAY) == pytest.approx(expected)
    assert await ledger.spent(user_id=5, day=TODAY) == pytest.approx(expected)


async def test_invalid_answers_are_paid_for_too(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, ledger: MemorySpendLedger
) -> None:
    openai_fake.push(Answer(text="nope", input_tokens=1000, output_tokens=1000), Answer(GOOD))
    llm = await make_llm("openai")  # $0.5 in, $2 out per million

    result = await llm.complete(request(), Slots)

    assert result.cost_usd == pytest.approx((100 * 0.5 + 20 * 2.0) / 1e6)
    total = await ledger.spent(user_id=None, day=TODAY)
    assert total == pytest.approx(2.5e-3 + result.cost_usd)


async def test_identical_call_is_served_from_cache(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, recorder: Recorder, ledger: MemorySpendLedger
) -> None:
    anthropic_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic")

    first = await llm.complete(request(user_id=1), Slots)
    second = await llm.complete(request(user_id=2), Slots)

    assert second.value == first.value and second.cached and not first.cached
    assert second.cost_usd == 0.0
    assert len(anthropic_fake.requests) == 1
    assert [(r.cached, r.ok, r.cost_usd > 0) for r in recorder.records] == [
        (False, True, True),
        (True, True, False),
    ]
    assert await ledger.spent(user_id=2, day=TODAY) == 0.0


async def test_different_request_or_schema_misses_the_cache(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic
) -> None:
    from pydantic import BaseModel

    class Other(BaseModel):
        intent: str

    anthropic_fake.push(Answer(GOOD), Answer(GOOD), Answer({"intent": "x"}))
    llm = await make_llm("anthropic")

    await llm.complete(request(text="a"), Slots)
    await llm.complete(request(text="b"), Slots)
    await llm.complete(request(text="a"), Other)

    assert len(anthropic_fake.requests) == 3


async def test_cache_entries_expire(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, cache: MemoryResponseCache
) -> None:
    anthropic_fake.push(Answer(GOOD), Answer(GOOD))
    llm = await make_llm("anthropic", cache_ttl_seconds=60)

    await llm.complete(request(), Slots)
    (key,) = cache._items
    value, _ = cache._items[key]
    cache._items[key] = (value, NOW)  # expired now
    await llm.complete(request(), Slots)

    assert len(anthropic_fake.requests) == 2


async def test_broken_cache_is_a_miss_not_a_crash(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, cache: MemoryResponseCache
) -> None:
    async def down(*args: object) -> None:
        raise ConnectionError("redis down")

    cache.get = down  # type: ignore[method-assign,assignment]
    cache.set = down  # type: ignore[method-assign,assignment]
    anthropic_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic")

    assert (await llm.complete(request(), Slots)).value.rooms == 3


async def test_user_over_budget_calls_nobody(
    make_llm: MakeLLM,
    anthropic_fake: FakeAnthropic,
    ledger: MemorySpendLedger,
    recorder: Recorder,
) -> None:
    await ledger.add(user_id=9, day=TODAY, usd=0.5)
    llm = await make_llm("anthropic", user_daily_budget_usd=0.5)

    with pytest.raises(LLMBudgetExceeded) as caught:
        await llm.complete(request(user_id=9), Slots)

    assert caught.value.scope == "user"
    assert anthropic_fake.requests == []
    assert [(r.ok, r.error_kind) for r in recorder.records] == [(False, ErrorKind.BUDGET)]
    anthropic_fake.push(Answer(GOOD))  # someone else still may
    assert (await llm.complete(request(user_id=10), Slots)).value.rooms == 3


async def test_total_over_budget_calls_nobody(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, ledger: MemorySpendLedger
) -> None:
    await ledger.add(user_id=None, day=TODAY, usd=2.0)
    llm = await make_llm("openai", daily_budget_usd=2.0)

    with pytest.raises(LLMBudgetExceeded) as caught:
        await llm.complete(request(user_id=None), Slots)

    assert caught.value.scope == "total"
    assert openai_fake.requests == []


async def test_budget_is_per_day(
    make_llm: MakeLLM, openai_fake: FakeOpenAI, ledger: MemorySpendLedger
) -> None:
    await ledger.add(user_id=None, day=date(2026, 11, 25), usd=100.0)
    openai_fake.push(Answer(GOOD))
    llm = await make_llm("openai", daily_budget_usd=1.0)

    assert (await llm.complete(request(), Slots)).provider == "openai"


async def test_spending_reaches_the_limit(make_llm: MakeLLM, anthropic_fake: FakeAnthropic) -> None:
    anthropic_fake.push(Answer(GOOD, input_tokens=100_000, output_tokens=0))  # $0.30
    llm = await make_llm("anthropic", user_daily_budget_usd=0.25)

    await llm.complete(request(text="first"), Slots)
    with pytest.raises(LLMBudgetExceeded):
        await llm.complete(request(text="second"), Slots)
    assert len(anthropic_fake.requests) == 1


async def test_failed_attempts_cost_nothing(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, ledger: MemorySpendLedger
) -> None:
    anthropic_fake.push(Fail(500), Answer(GOOD, input_tokens=0, output_tokens=0))
    llm = await make_llm("anthropic")

    await llm.complete(request(), Slots)

    assert await ledger.spent(user_id=None, day=TODAY) == 0.0


async def test_cached_answers_are_served_over_budget(
    make_llm: MakeLLM, anthropic_fake: FakeAnthropic, ledger: MemorySpendLedger
) -> None:
    anthropic_fake.push(Answer(GOOD))
    llm = await make_llm("anthropic", user_daily_budget_usd=0.5)
    await llm.complete(request(user_id=1), Slots)
    await ledger.add(user_id=3, day=TODAY, usd=1.0)

    assert (await llm.complete(request(user_id=3), Slots)).cached
    with pytest.raises(LLMBudgetExceeded):
        await llm.complete(request(user_id=3, text="something new"), Slots)
    assert len(anthropic_fake.requests) == 1
