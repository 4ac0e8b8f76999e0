"""The LLM layer: one ``LLM`` protocol, Anthropic/OpenAI/OpenAI-compatible providers,
fallback with retries and timeouts, response cache, budgets and per-call accounting.

    llm = build_llm(settings.llm, cache=..., ledger=..., on_call=bus_publish)
    if llm is not None:
        try:
            result = await llm.complete(LLMRequest.ask(system, text, purpose="extract"), Answer)
        except LLMError:
            ...  # the deterministic policy

The vendor SDKs take seconds to import, so ``AnthropicProvider`` and ``OpenAIProvider``
are loaded on first use: importing ``core.llm`` (or its settings) with no LLM is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from core.llm.anthropic_provider import AnthropicProvider
    from core.llm.openai_provider import OpenAIProvider

_LAZY = {
    "AnthropicProvider": "core.llm.anthropic_provider",
    "OpenAIProvider": "core.llm.openai_provider",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
