"""Typed events of the LLM layer and the brain (published on the core's ``EventBus``)."""

from __future__ import annotations

from typing import Literal

from core.events import BaseEvent
from core.llm import LLMCallRecord

__all__ = ["BrainConsulted", "BrainDecided", "LLMCalled"]


class LLMCalled(BaseEvent):
    """One provider attempt, cache hit or budget refusal (from ``LLMCallRecord``)."""

    kind = "llm.called"
    provider: str
    model: str
    purpose: str
    user_id: int | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    cached: bool = False
    ok: bool
    error_kind: str | None = None
    attempt: int = 1

    @classmethod
    def of(cls, record: LLMCallRecord) -> LLMCalled:
        data = record.model_dump(mode="json")
        return cls(**data)


class BrainConsulted(BaseEvent):
    """The brain asked the LLM about a situation (or tried to and failed)."""

    kind = "brain.consulted"
    step: str
    signature: str
    ok: bool
    provider: str = ""
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    cached: bool = False
    error: str | None = None


class BrainDecided(BaseEvent):
    """What the brain decided, and where the decision came from."""

    kind = "brain.decided"
    step: str
    action: str
    source: Literal["llm", "memory", "policy", "user"]
    detail: str = ""
    resolved: bool | None = None  # for clicks: did the expected page come back
