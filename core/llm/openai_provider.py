"""OpenAI Chat Completions through the official SDK, also for OpenAI-compatible servers.

Structured output uses ``response_format`` ``json_schema``; servers without it (older
Ollama, llama.cpp builds) use ``json_object`` with the schema written into the prompt.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Literal

import openai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.chat.completion_create_params import ResponseFormat
from pydantic import SecretStr

from core.llm.models import LLMRequest, RawCompletion
from core.llm.protocol import Price
from core.llm.sdk import SdkErrors, SdkProvider, StatusReply, api_name, translated

__all__ = ["OpenAIProvider", "strict_schema"]

# An OpenAI-compatible server without authentication still needs a non-empty key in the SDK.
NO_KEY = "no-key"


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Adapt a pydantic JSON schema to OpenAI strict mode: all keys required, no extras."""
    result = copy.deepcopy(schema)

    def visit(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    visit(result)
    return result


def _error_message(body: object) -> str:
    """``error.message`` from an OpenAI error body (the SDK may hand us the inner object)."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
    return ""


def _read(exc: openai.APIStatusError) -> StatusReply:
    return StatusReply(
        status=exc.status_code, headers=exc.response.headers, message=_error_message(exc.body)
    )


_ERRORS = SdkErrors(
    status=openai.APIStatusError,
    timeout=openai.APITimeoutError,
    connection=openai.APIConnectionError,
    base=openai.OpenAIError,
    read=_read,
)


class OpenAIProvider(SdkProvider):
    """``name`` is ``"openai"`` for OpenAI itself or ``"local"`` for a compatible server."""

    def __init__(
        self,
        *,
        model: str,
        price: Price,
        api_key: SecretStr | None = None,
        base_url: str | None = None,
        timeout: float = 30.0,
        name: str = "openai",
        response_format: Literal["json_schema", "json_object"] = "json_schema",
        strict: bool = False,
        legacy_max_tokens: bool = False,
    ) -> None:
        secret = api_key.get_secret_value() if api_key else None
        super().__init__(name=name, model=model, price=price, secret=secret)
        self._format = response_format
        self._strict = strict
        self._legacy_max_tokens = legacy_max_tokens
        # max_retries=0: FallbackLLM's retry policy is the only one in force.
        self._client = openai.AsyncOpenAI(
            api_key=secret or NO_KEY, base_url=base_url, max_retries=0, timeout=timeout
        )

    def _response_format(
        self, schema_name: str, json_schema: dict[str, Any]
    ) -> tuple[ResponseFormat, str]:
        if self._format == "json_object":
            note = (
                "\n\nReply with one JSON object (no prose, no code fences) that matches "
                f"this JSON Schema:\n{json.dumps(json_schema, ensure_ascii=False)}"
            )
            return {"type": "json_object"}, note
        schema = strict_schema(json_schema) if self._strict else json_schema
        name = api_name(schema_name)
        return {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": self._strict},
        }, ""

    async def generate(
        self,
        request: LLMRequest,
        *,
        schema_name: str,
        json_schema: dict[str, Any],
        timeout: float,
    ) -> RawCompletion:
        response_format, note = self._response_format(schema_name, json_schema)
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": request.system + note}
        ]
        for m in request.messages:
            if m.role == "user":
                messages.append({"role": "user", "content": m.content})
            else:
                messages.append({"role": "assistant", "content": m.content})
        # OpenAI's newer models want max_completion_tokens; compatible servers know max_tokens.
        legacy = self._legacy_max_tokens
        with translated(_ERRORS, provider=self._name, secret=self._secret):
            completion = await self._client.chat.completions.create(
                model=self._model,
                messages=messages,
                temperature=request.temperature,
                response_format=response_format,
                timeout=timeout,
                max_tokens=request.max_tokens if legacy else openai.omit,
                max_completion_tokens=openai.omit if legacy else request.max_tokens,
            )

        usage = completion.usage
        tokens_in = usage.prompt_tokens if usage else 0
        tokens_out = usage.completion_tokens if usage else 0
        if not completion.choices:
            return RawCompletion(text="", input_tokens=tokens_in, output_tokens=tokens_out)
        message = completion.choices[0].message
        text = message.content or (f"(refused: {message.refusal})" if message.refusal else "")
        return RawCompletion(text=text, input_tokens=tokens_in, output_tokens=tokens_out)

    async def close(self) -> None:
        await self._client.close()
