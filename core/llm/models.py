"""What goes into an LLM call and what comes out of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from core.llm.errors import ErrorKind

__all__ = [
    "ChatMessage",
    "LLMCallRecord",
    "LLMRequest",
    "LLMResult",
    "RawCompletion",
    "T",
    "Validator",
]

T = TypeVar("T", bound=BaseModel)

# Extra check of a parsed answer, e.g. "this action is not allowed here":
# raise ValueError with a message the model can act on; it is fed back once.
Validator = Callable[[T], None]


class ChatMessage(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant"]
    content: str


class LLMRequest(BaseModel):
    """One structured-completion request; ``purpose`` tags it for accounting."""

    model_config = ConfigDict(frozen=True)

    system: str
    messages: tuple[ChatMessage, ...] = Field(min_length=1)
    max_tokens: int = Field(default=1024, ge=1, le=32_000)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    purpose: str = "answer"
    user_id: int | None = None
    # The run it serves, if any: its calls then show on the run's timeline.
    chat_id: int | None = None
    run_id: str | None = None

    @classmethod
    def ask(
        cls,
        system: str,
        text: str,
        *,
        purpose: str = "answer",
        user_id: int | None = None,
        chat_id: int | None = None,
        run_id: str | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
    ) -> LLMRequest:
        """A request with one user message (the common case)."""
        return cls(
            system=system,
            messages=(ChatMessage(role="user", content=text),),
            purpose=purpose,
            user_id=user_id,
            chat_id=chat_id,
            run_id=run_id,
            max_tokens=max_tokens,
            temperature=temperature,
        )

    def with_feedback(self, answer: str, problem: str) -> LLMRequest:
        """This request plus the model's bad answer and what was wrong with it."""
        note = (
            f"Your previous answer was rejected: {problem}\n"
            "Answer again with a corrected JSON object that satisfies the schema."
        )
        extra = (
            ChatMessage(role="assistant", content=answer or "(empty answer)"),
            ChatMessage(role="user", content=note),
        )
        return self.model_copy(update={"messages": self.messages + extra})


class RawCompletion(BaseModel):
    """A provider's unparsed answer: JSON text plus token usage."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0


class LLMResult(BaseModel, Generic[T]):
    """A validated answer and what it cost."""

    value: T
    provider: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    cached: bool = False


class LLMCallRecord(BaseModel):
    """One provider attempt, cache hit or budget refusal; published on the event bus."""

    model_config = ConfigDict(frozen=True)

    provider: str
    model: str
    purpose: str
    user_id: int | None = None
    chat_id: int | None = None
    run_id: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    cached: bool = False
    ok: bool
    error_kind: ErrorKind | None = None
    attempt: int = 1
