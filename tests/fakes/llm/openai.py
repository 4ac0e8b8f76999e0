"""Fake OpenAI Chat Completions: ``POST /v1/chat/completions`` (``base_url`` = ``origin/v1``).

Serves both the "openai" and the OpenAI-compatible "local" provider in tests.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from tests.fakes.llm.script import Answer
from tests.fakes.llm.server import FakeVendorServer

__all__ = ["FakeOpenAI"]

_ERROR_TYPES = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", None),
    503: ("server_error", "service_unavailable"),
}


class FakeOpenAI(FakeVendorServer):
    route = "/v1/chat/completions"

    def __init__(self, *, api_key: str | None = None) -> None:
        super().__init__(api_key=api_key)
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        """What ``AsyncOpenAI(base_url=...)`` and ``LLM__OPENAI__BASE_URL`` take."""
        return f"{self.origin}/v1"

    def success_body(self, answer: Answer, body: dict[str, Any]) -> dict[str, Any]:
        n = next(self._ids)
        content = answer.text if answer.text is not None else json.dumps(answer.data or {})
        return {
            "id": f"chatcmpl-fake{n:04d}",
            "object": "chat.completion",
            "created": 1_763_000_000 + n,
            "model": body.get("model", "gpt-fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": answer.input_tokens,
                "completion_tokens": answer.output_tokens,
                "total_tokens": answer.input_tokens + answer.output_tokens,
            },
            "system_fingerprint": "fp_fake",
        }

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        kind, code = _ERROR_TYPES.get(status, ("server_error", None))
        return {"error": {"message": message, "type": kind, "param": None, "code": code}}

    def error_headers(self) -> dict[str, str]:
        return {"x-request-id": f"req_fake{len(self.requests):04d}"}
