"""Anthropic Messages API through the official SDK; structured output via one forced tool.

The SDK (2.x) has no ``temperature`` parameter any more, so ``LLMRequest.temperature``
is not sent to Anthropic.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
from anthropic.types import MessageParam, ToolParam
from pydantic import SecretStr

from core.llm.models import LLMRequest, RawCompletion
from core.llm.protocol import Price
from core.llm.sdk import SdkErrors, SdkProvider, StatusReply, api_name, translated

__all__ = ["AnthropicProvider"]


def _read(exc: anthropic.APIStatusError) -> StatusReply:
    return StatusReply(
        status=exc.status_code,
        headers=exc.response.headers,
        message=exc.api_message or "",
        label=exc.type or "",
    )


_ERRORS = SdkErrors(
    status=anthropic.APIStatusError,
    timeout=anthropic.APITimeoutError,
    connection=anthropic.APIConnectionError,
    base=anthropic.AnthropicError,
    read=_read,
)


class AnthropicProvider(SdkProvider):
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
        secret = api_key.get_secret_value()
        super().__init__(name=name, model=model, price=price, secret=secret)
        # max_retries=0: FallbackLLM's retry policy is the only one in force.
        self._client = anthropic.AsyncAnthropic(
            api_key=secret, base_url=base_url, max_retries=0, timeout=timeout
        )

    async def generate(
        self,
        request: LLMRequest,
        *,
        schema_name: str,
        json_schema: dict[str, Any],
        timeout: float,
    ) -> RawCompletion:
        name = api_name(schema_name)
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
        with translated(_ERRORS, provider=self._name, secret=self._secret):
            message = await self._client.messages.create(
                model=self._model,
                system=request.system,
                messages=messages,
                max_tokens=request.max_tokens,
                tools=[tool],
                tool_choice={"type": "tool", "name": name, "disable_parallel_tool_use": True},
                timeout=timeout,
            )

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
