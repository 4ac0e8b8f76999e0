"""``build_llm``: providers from ``LLMSettings`` in the configured order, or ``None``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from core.llm.budget import Budget
from core.llm.cache import SafeCache
from core.llm.fallback import FallbackLLM
from core.llm.ports import Clock, OnCall, ResponseCache, Sleep, SpendLedger
from core.llm.protocol import ChatProvider
from core.llm.retry import RetryPolicy
from core.llm.settings import LLMSettings, ProviderName

__all__ = ["build_llm", "build_provider"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def build_provider(settings: LLMSettings, name: ProviderName) -> ChatProvider:
    # The SDKs are imported here, not at module level: they take seconds to load.
    timeout = settings.timeout_seconds
    if name == "anthropic":
        from core.llm.anthropic_provider import AnthropicProvider

        section = settings.anthropic
        if section.api_key is None:  # LLMSettings already refuses this; keep mypy honest
            raise ValueError("LLM__ANTHROPIC__API_KEY is not set")
        return AnthropicProvider(
            api_key=section.api_key,
            model=section.model,
            price=section.price,
            base_url=section.base_url,
            timeout=timeout,
        )
    from core.llm.openai_provider import OpenAIProvider

    openai_like = settings.openai if name == "openai" else settings.local
    return OpenAIProvider(
        name=name,
        api_key=openai_like.api_key,
        model=openai_like.model,
        price=openai_like.price,
        base_url=openai_like.base_url,
        timeout=timeout,
        response_format=openai_like.response_format,
        strict=openai_like.strict,
        legacy_max_tokens=name == "local",
    )


def build_llm(
    settings: LLMSettings,
    *,
    cache: ResponseCache | None,
    ledger: SpendLedger,
    on_call: OnCall,
    clock: Clock = _utcnow,
    sleep: Sleep = asyncio.sleep,
) -> FallbackLLM | None:
    """The app's LLM, or ``None`` when ``LLM__PROVIDERS`` is empty (rules only)."""
    if not settings.providers:
        return None
    providers = [build_provider(settings, name) for name in settings.providers]
    budget = Budget(
        ledger,
        total_usd=settings.daily_budget_usd,
        per_user_usd=settings.user_daily_budget_usd,
        clock=clock,
    )
    policy = RetryPolicy(
        max_retries=settings.max_retries,
        base_delay=settings.backoff_base_seconds,
        max_delay=settings.backoff_max_seconds,
        retry_after_cap=settings.retry_after_cap_seconds,
    )
    return FallbackLLM(
        providers,
        budget=budget,
        on_call=on_call,
        cache=SafeCache(cache, ttl_seconds=settings.cache_ttl_seconds),
        policy=policy,
        timeout_seconds=settings.timeout_seconds,
        sleep=sleep,
    )
