"""What a fake vendor server answers next, and what it saw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Answer", "Fail", "RecordedRequest", "Step"]


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful completion.

    ``data`` (a dict) becomes a tool_use block (Anthropic) or JSON content (OpenAI);
    ``text`` is sent verbatim instead: prose, malformed JSON, fenced JSON...
    """

    data: dict[str, Any] | None = None
    text: str | None = None
    input_tokens: int = 100
    output_tokens: int = 20
    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class Fail:
    """An HTTP error in the vendor's JSON error format."""

    status: int
    retry_after: float | None = None
    message: str | None = None
    echo_key: bool = False  # a careless vendor that repeats the key it received
    delay: float = 0.0


Step = Answer | Fail


@dataclass(slots=True)
class RecordedRequest:
    """One request as the fake saw it; the credential itself is never stored."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    auth_header: str | None = None  # which header carried the key
    auth_ok: bool = False  # the key matched the one the fake expects
    extra: dict[str, Any] = field(default_factory=dict)
