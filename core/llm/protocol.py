"""The ``LLM`` protocol the app depends on, and the ``ChatProvider`` one vendor implements."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

from core.llm.models import LLMRequest, LLMResult, RawCompletion, T, Validator

__all__ = ["LLM", "ChatProvider", "Price"]


class LLM(Protocol):
    """Structured completion: the answer is parsed into ``schema`` or an ``LLMError`` is raised."""

    async def complete(
        self, request: LLMRequest, schema: type[T], *, validate: Validator[T] | None = None
    ) -> LLMResult[T]: ...


class Price(BaseModel):
    """US dollars per million input and output tokens."""

    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1e6


class ChatProvider(Protocol):
    """One vendor endpoint. Raises ``ProviderCallError`` (never an SDK exception)."""

    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def price(self) -> Price: ...

    async def generate(
        self,
        request: LLMRequest,
        *,
        schema_name: str,
        json_schema: dict[str, Any],
        timeout: float,
    ) -> RawCompletion: ...

    async def close(self) -> None: ...
