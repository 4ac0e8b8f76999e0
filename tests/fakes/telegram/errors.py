"""Bot API errors as Telegram reports them: an HTTP status equal to ``error_code``."""

from __future__ import annotations

from typing import Any

__all__ = ["ApiError", "bad_request", "error_body"]


class ApiError(Exception):
    """Raised inside a method implementation; the server turns it into an error response."""

    def __init__(self, error_code: int, description: str, *, retry_after: int | None = None):
        super().__init__(f"{error_code}: {description}")
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return error_body(self.error_code, self.description, retry_after=self.retry_after)


def bad_request(reason: str) -> ApiError:
    """``400 Bad Request: <reason>``, the most common Telegram error."""
    return ApiError(400, f"Bad Request: {reason}")


def error_body(
    error_code: int, description: str, *, retry_after: int | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"ok": False, "error_code": error_code, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return body
