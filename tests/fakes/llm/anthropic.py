"""Fake Anthropic Messages API: ``POST /v1/messages`` (point ``base_url`` at ``origin``)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from tests.fakes.llm.script import Answer
from tests.fakes.llm.server import FakeVendorServer

__all__ = ["FakeAnthropic"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class FakeAnthropic(FakeVendorServer):
    route = "/v1/messages"

    def __init__(self, *, api_key: str | None = None) -> None:
        super().__init__(api_key=api_key)
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        """What ``AsyncAnthropic(base_url=...)`` and ``LLM__ANTHROPIC__BASE_URL`` take."""
        return self.origin

    def success_body(self, answer: Answer, body: dict[str, Any]) -> dict[str, Any]:
        n = next(self._ids)
        content: list[dict[str, Any]]
        if answer.text is not None:
            content = [{"type": "text", "text": answer.text}]
            stop_reason = "end_turn"
        else:
            choice = body.get("tool_choice") or {}
            tools = body.get("tools") or [{}]
            name = choice.get("name") or tools[0].get("name", "answer")
            content = [
                {
                    "type": "tool_use",
                    "id": f"toolu_fake{n:04d}",
                    "name": name,
                    "input": json.loads(json.dumps(answer.data or {})),
                }
            ]
            stop_reason = "tool_use"
        return {
            "id": f"msg_fake{n:04d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-fake"),
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": answer.input_tokens, "output_tokens": answer.output_tokens},
        }

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        kind = _ERROR_TYPES.get(status, "api_error")
        return {
            "type": "error",
            "error": {"type": kind, "message": message},
            "request_id": f"req_fake{len(self.requests):04d}",
        }

    def error_headers(self) -> dict[str, str]:
        return {"request-id": f"req_fake{len(self.requests):04d}"}
