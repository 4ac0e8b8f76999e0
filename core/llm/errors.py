"""Errors of the LLM layer.

    LLMError (core.errors)
    ├── LLMUnavailable       every configured provider failed; run the deterministic policy
    ├── LLMBudgetExceeded    the daily budget (per user or total) is spent; nobody was called
    └── ProviderCallError    one provider call failed (internal: FallbackLLM handles it)
        └── InvalidOutput    the answer was not JSON, failed the schema or was rejected

SDK exceptions are translated into ``ProviderCallError`` by ``core.llm.sdk.translated``
around each provider's call (``raise ... from exc``). Texts never contain API keys: vendor
messages pass ``redact``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from core.errors import LLMError

__all__ = [
    "ErrorKind",
    "InvalidOutput",
    "LLMBudgetExceeded",
    "LLMUnavailable",
    "ProviderCallError",
    "ProviderFailure",
    "kind_for_status",
    "redact",
]


class ErrorKind(StrEnum):
    RATE_LIMITED = "rate_limited"
    OVERLOADED = "overloaded"
    SERVER_ERROR = "server_error"
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    AUTH = "auth"
    BAD_REQUEST = "bad_request"
    INVALID_OUTPUT = "invalid_output"
    REJECTED = "rejected"
    BUDGET = "budget"
    UNKNOWN = "unknown"


_RETRYABLE = frozenset(
    {ErrorKind.RATE_LIMITED, ErrorKind.OVERLOADED, ErrorKind.SERVER_ERROR, ErrorKind.TIMEOUT,
     ErrorKind.CONNECTION}
)  # fmt: skip


def kind_for_status(status: int) -> ErrorKind:
    """Map an HTTP status of a vendor API to our error kind."""
    if status == 429:
        return ErrorKind.RATE_LIMITED
    if status == 529:
        return ErrorKind.OVERLOADED
    if status in (408, 504):
        return ErrorKind.TIMEOUT
    if status >= 500:
        return ErrorKind.SERVER_ERROR
    if status in (401, 403):
        return ErrorKind.AUTH
    return ErrorKind.BAD_REQUEST


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """Replace every occurrence of a secret in ``text``; cut it to a loggable length."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text[:300]


class ProviderCallError(LLMError):
    """One call to one provider failed; ``retryable`` says whether to try it again."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        kind: ErrorKind,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{provider}: {message}")
        self.provider = provider
        self.kind = kind
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in _RETRYABLE

    def __repr__(self) -> str:
        return f"{type(self).__name__}(provider={self.provider!r}, kind={self.kind.value!r})"


class InvalidOutput(ProviderCallError):
    """The model answered, but not with what we asked for (fed back once, then a failure)."""

    def __init__(self, message: str, *, provider: str, kind: ErrorKind = ErrorKind.INVALID_OUTPUT):
        super().__init__(message, provider=provider, kind=kind)
        self.reason = message


@dataclass(frozen=True, slots=True)
class ProviderFailure:
    """Why one provider gave up, as told in ``LLMUnavailable.failures``."""

    provider: str
    kind: ErrorKind
    message: str


class LLMUnavailable(LLMError):
    """No configured provider produced a valid answer; callers fall back to rules."""

    def __init__(self, failures: Iterable[ProviderFailure]) -> None:
        self.failures = tuple(failures)
        summary = ", ".join(f"{f.provider}: {f.kind.value}" for f in self.failures) or "none"
        super().__init__(
            f"no LLM provider answered ({summary})",
            hint="the assistant continues without the language model",
        )

    def __repr__(self) -> str:
        return f"LLMUnavailable(failures={[(f.provider, f.kind.value) for f in self.failures]!r})"


class LLMBudgetExceeded(LLMError):
    """The daily LLM budget is spent (``scope`` is ``"user"`` or ``"total"``)."""

    def __init__(self, *, scope: str, spent_usd: float, limit_usd: float) -> None:
        self.scope = scope
        self.spent_usd = spent_usd
        self.limit_usd = limit_usd
        super().__init__(
            f"daily LLM budget ({scope}) spent: ${spent_usd:.4f} of ${limit_usd:.4f}",
            hint="the assistant continues without the language model until tomorrow",
        )

    def __repr__(self) -> str:
        return f"LLMBudgetExceeded(scope={self.scope!r})"
