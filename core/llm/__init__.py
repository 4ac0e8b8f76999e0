"""The LLM layer: one ``LLM`` protocol, Anthropic/OpenAI/OpenAI-compatible providers,
fallback with retries and timeouts, response cache, budgets and per-call accounting.

    llm = build_llm(settings.llm, cache=..., ledger=..., on_call=bus_publish)
    if llm is not None:
        try:
            result = await llm.complete(LLMRequest.ask(system, text, purpose="extract"), Slots)
        except LLMError:
            ...  # the deterministic policy
"""

from __future__ import annotations

from core.llm.anthropic_provider import AnthropicProvider
from core.llm.budget import Budget
from core.llm.cache import SafeCache, cache_key
from core.llm.errors import (
    ErrorKind,
    InvalidOutput,
    LLMBudgetExceeded,
    LLMUnavailable,
    ProviderCallError,
    ProviderFailure,
)
from core.llm.factory import build_llm, build_provider
from core.llm.fallback import FallbackLLM
from core.llm.memory import MemoryResponseCache, MemorySpendLedger
from core.llm.models import (
    ChatMessage,
    LLMCallRecord,
    LLMRequest,
    LLMResult,
    RawCompletion,
    Validator,
)
from core.llm.openai_provider import OpenAIProvider
from core.llm.ports import Clock, OnCall, ResponseCache, Sleep, SpendLedger
from core.llm.protocol import LLM, ChatProvider, Price
from core.llm.retry import RetryPolicy
from core.llm.settings import (
    AnthropicSettings,
    LLMSettings,
    LocalSettings,
    OpenAISettings,
    ProviderName,
)

__all__ = [
    "LLM",
    "AnthropicProvider",
    "AnthropicSettings",
    "Budget",
    "ChatMessage",
    "ChatProvider",
    "Clock",
    "ErrorKind",
    "FallbackLLM",
    "InvalidOutput",
    "LLMBudgetExceeded",
    "LLMCallRecord",
    "LLMRequest",
    "LLMResult",
    "LLMSettings",
    "LLMUnavailable",
    "LocalSettings",
    "MemoryResponseCache",
    "MemorySpendLedger",
    "OnCall",
    "OpenAIProvider",
    "OpenAISettings",
    "Price",
    "ProviderCallError",
    "ProviderFailure",
    "ProviderName",
    "RawCompletion",
    "ResponseCache",
    "RetryPolicy",
    "SafeCache",
    "Sleep",
    "SpendLedger",
    "Validator",
    "build_llm",
    "build_provider",
    "cache_key",
]
