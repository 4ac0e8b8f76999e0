"""Anthropic Messages API through the official SDK; structured output via one forced tool.

The SDK (2.x) has no ``temperature`` parameter any more, so ``LLMRequest.temperature``
is not sent to Anthropic.
"""

from __future__ import annotations

import json
import re
from typing import Any

import anthropic
from anthropic.types import MessageParam, ToolParam
from pydantic import SecretStr

from core.llm.errors import ErrorKind, ProviderCallError, kind_for_status, redact
from core.llm.models import LLMRequest, RawCompletion
from core.llm.protocol import Price
from core.llm.retry import parse_retry_after

__all__ = ["AnthropicProvider", "tool_name"]


def tool_name(schema_name: str) -> str:
    """A tool name the API accepts (``^[a-zA-Z0-9_-]{1,64}$``)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema_name)[:64] or "answer"


class AnthropicProvider:
    """``name`` is what records and cache keys call it (``"anthropic"``)."""

    def __init__(
        self,
        *,
        api_key: SecretStr,
        model: str,
        price: Price,
        base_url: str | None = None,
        timeout: float = 30.0,
        name: str = "anthropic",
    ) -> None:
        self._name = name
        self._model = model
        self._price = price
        self._secret = api_key.get_secret_value()
        # max_retries=0: FallbackLLM's retry policy is the only one in force.
        self._client = anthropic.AsyncAnthropic(
            api_key=self._secret, base_url=base_url, max_retries=0, timeout=timeout
        )

    @property
    def name(self) -> str:
        return self._name

    @property
    def model(self) -> str:
        return self._model

    @property
    def price(self) -> Price:
        return self._price

    def __repr__(self) -> str:
        return f"AnthropicProvider(name={self._name!r}, model={self._model!r})"

    async def generate(
        self,
        request: LLMRequest,
        *,
        schema_name: str,
        json_schema: dict[str, Any],
        timeout: float,
    ) -> RawCompletion:
        name = tool_name(schema_name)
        tool: ToolParam = {
            "name": name,
            "description": "Give the answer by calling this tool with arguments that match "
            "its input schema.",
            "input_schema": json_schema,
        }
        messages: list[MessageParam] = []
        for m in request.messages:
            if m.role == "user":
                messages.append({"role": "user", "content": m.content})
            else:
                messages.append({"role": "assistant", "content": m.content})
        try:
            message = await self._client.messages.create(
                model=self._model,
                system=request.system,
                messages=messages,
                max_tokens=request.max_tokens,
                tools=[tool],
                tool_choice={"type": "tool", "name": name, "disable_parallel_tool_use": True},
                timeout=timeout,
            )
        except anthropic.APIStatusError as exc:
            kind = (
                ErrorKind.OVERLOADED if exc.status_code == 529 else kind_for_status(exc.status_code)
            )
            detail = redact(exc.api_message or "", [self._secret])
            raise ProviderCallError(
                f"HTTP {exc.status_code} {exc.type or ''}: {detail}".strip(),
                provider=self._name,
                kind=kind,
                status=exc.status_code,
                retry_after=parse_retry_after(dict(exc.response.headers)),
            ) from exc
        except anthropic.APITimeoutError as exc:
            raise ProviderCallError(
                "timed out", provider=self._name, kind=ErrorKind.TIMEOUT
            ) from exc
        except anthropic.APIConnectionError as exc:
            raise ProviderCallError(
                "cannot connect", provider=self._name, kind=ErrorKind.CONNECTION
            ) from exc
        except anthropic.AnthropicError as exc:
            raise ProviderCallError(
                f"SDK error {type(exc).__name__}", provider=self._name, kind=ErrorKind.UNKNOWN
            ) from exc

        usage = message.usage
        for block in message.content:
            if block.type == "tool_use" and block.name == name:
                return RawCompletion(
                    text=json.dumps(block.input, ensure_ascii=False),
                    input_tokens=usage.input_tokens,
                    output_tokens=usage.output_tokens,
                )
        # Prose instead of the tool call: the caller's parser rejects it and feeds that back.
        text = "".join(block.text for block in message.content if block.type == "text")
        return RawCompletion(
            text=text, input_tokens=usage.input_tokens, output_tokens=usage.output_tokens
        )

    async def close(self) -> None:
        await self._client.close()
