"""OpenAI Chat Completions through the official SDK, also for OpenAI-compatible servers.

Structured output uses ``response_format`` ``json_schema``; servers without it (older
Ollama, llama.cpp builds) use ``json_object`` with the schema written into the prompt.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Literal

import openai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.chat.completion_create_params import ResponseFormat
from pydantic import SecretStr

from core.llm.errors import ErrorKind, ProviderCallError, kind_for_status, redact
from core.llm.models import LLMRequest, RawCompletion
from core.llm.protocol import Price
from core.llm.retry import parse_retry_after

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


class OpenAIProvider:
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
        self._name = name
        self._model = model
        self._price = price
        self._format = response_format
        self._strict = strict
        self._legacy_max_tokens = legacy_max_tokens
        self._secret = api_key.get_secret_value() if api_key else None
        # max_retries=0: FallbackLLM's retry policy is the only one in force.
        self._client = openai.AsyncOpenAI(
            api_key=self._secret or NO_KEY, base_url=base_url, max_retries=0, timeout=timeout
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
        return f"OpenAIProvider(name={self._name!r}, model={self._model!r})"

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
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", schema_name)[:64] or "answer"
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
        try:
            completion = await self._client.chat.completions.create(
                model=self._model,
                messages=messages,
                temperature=request.temperature,
                response_format=response_format,
                timeout=timeout,
                max_tokens=request.max_tokens if legacy else openai.omit,
                max_completion_tokens=openai.omit if legacy else request.max_tokens,
            )
        except openai.APIStatusError as exc:
            detail = redact(_error_message(exc.body), [self._secret])
            raise ProviderCallError(
                f"HTTP {exc.status_code}: {detail}".strip(),
                provider=self._name,
                kind=kind_for_status(exc.status_code),
                status=exc.status_code,
                retry_after=parse_retry_after(dict(exc.response.headers)),
            ) from exc
        except openai.APITimeoutError as exc:
            raise ProviderCallError(
                "timed out", provider=self._name, kind=ErrorKind.TIMEOUT
            ) from exc
        except openai.APIConnectionError as exc:
            raise ProviderCallError(
                "cannot connect", provider=self._name, kind=ErrorKind.CONNECTION
            ) from exc
        except openai.OpenAIError as exc:
            raise ProviderCallError(
                f"SDK error {type(exc).__name__}", provider=self._name, kind=ErrorKind.UNKNOWN
            ) from exc

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


def _error_message(body: object) -> str:
    """``error.message`` from an OpenAI error body (the SDK may hand us the inner object)."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
    return ""
