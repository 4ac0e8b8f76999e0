"""JSON calls to Indico through a logged-in browser context, and Indico's failures as types.

We call the same endpoints Indico's room booking React app calls, with the browser's
cookies (``context.request`` shares them) and the two headers the app sends: the
``X-CSRF-Token`` from the page's ``<meta name="csrf-token">`` (required on every
non-GET) and ``X-Requested-With: XMLHttpRequest`` (so errors come back as JSON, and a
lost session as 403 rather than a redirect to the login page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from playwright.async_api import APIRequestContext, APIResponse
from playwright.async_api import Error as PlaywrightError

from adapters.indico.errors import (
    BeyondHorizon,
    BookingRefused,
    IndicoError,
    Missing,
    NotAllowed,
    OutsideBookableHours,
    PasswordChangeRequired,
    SessionLost,
    SlotOccupied,
    SpansMidnight,
    StartsInPast,
    SystemUnavailable,
    UnexpectedAnswer,
)

__all__ = ["CSRF_META", "IndicoHttp", "refusal"]

CSRF_META = re.compile(r'<meta name="csrf-token" id="csrf-token" content="([^"]+)"')

# Indico's ExpectedError texts (en_GB, the seeded users' language) -> our types.
_REFUSALS: tuple[tuple[re.Pattern[str], type[BookingRefused]], ...] = (
    (re.compile(r"more than \d+ days in advance"), BeyondHorizon),
    (re.compile(r"cannot be booked at this time"), OutsideBookableHours),
    (re.compile(r"starts in the past"), StartsInPast),
    (re.compile(r"no valid occurrences"), SlotOccupied),
)
_MIDNIGHT = "end_dt != start_dt"


def refusal(message: str, status: int) -> BookingRefused:
    for pattern, kind in _REFUSALS:
        if pattern.search(message):
            return kind(message, status=status)
    return BookingRefused(message, status=status)


def _message(body: Any, fallback: str) -> str:
    """Indico's text: ``{"message"}`` (418), ``{"error": {"message"}}`` or webargs errors (422)."""
    if isinstance(body, dict):
        if isinstance(body.get("message"), str):
            return str(body["message"])
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if "webargs_errors" in body:
            return json.dumps(body["webargs_errors"], ensure_ascii=False)
    return fallback


class IndicoHttp:
    """One logged-in Indico: GET/POST JSON, translating every failure to an ``IndicoError``."""

    def __init__(
        self, request: APIRequestContext, base_url: str, csrf_token: str, *, timeout_s: float
    ) -> None:
        self._request = request
        self.base_url = base_url.rstrip("/")
        self._csrf = csrf_token
        self._timeout_ms = timeout_s * 1000

    def _headers(self) -> dict[str, str]:
        return {"X-CSRF-Token": self._csrf, "X-Requested-With": "XMLHttpRequest"}

    async def get(self, path: str, params: Mapping[str, str | int | bool] | None = None) -> Any:
        return await self._call("GET", path, params, None)

    async def post(
        self,
        path: str,
        params: Mapping[str, str | int | bool] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> Any:
        return await self._call("POST", path, params, body if body is not None else {})

    async def _call(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int | bool] | None,
        body: Mapping[str, Any] | None,
    ) -> Any:
        url = self.base_url + path
        try:
            response = await self._request.fetch(
                url,
                method=method,
                params=dict(params) if params else None,
                data=dict(body) if body is not None else None,
                headers=self._headers(),
                timeout=self._timeout_ms,
                max_redirects=0,
                fail_on_status_code=False,
            )
        except PlaywrightError as exc:  # connection refused, timeout, closed context
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SystemUnavailable(f"Indico did not answer {method} {path}: {first}") from exc
        if response.ok:
            return await self._json(response, method, path)
        raise await self._failure(response, method, path)

    async def _json(self, response: APIResponse, method: str, path: str) -> Any:
        try:
            return await response.json()
        except (PlaywrightError, ValueError) as exc:
            raise SystemUnavailable(f"Indico sent no JSON for {method} {path}") from exc

    async def _failure(self, response: APIResponse, method: str, path: str) -> IndicoError:
        status = response.status
        try:
            body: Any = await response.json()
        except (PlaywrightError, ValueError):
            body = None
        text = _message(body, f"HTTP {status} for {method} {path}")
        if 300 <= status < 400:
            location = response.headers.get("location", "")
            if "/login" in location:
                return SessionLost("Indico sent us to its login page", status=status)
            return UnexpectedAnswer(f"unexpected redirect for {method} {path}", status=status)
        if status == 418:
            return refusal(text, status)
        if status >= 500:
            if _MIDNIGHT in text:
                return SpansMidnight(
                    "a one-off booking must end on the day it starts", status=status
                )
            return SystemUnavailable(f"Indico failed ({status}): {text}", status=status)
        if status == 400 and "problem with your current session" in text:
            return SessionLost(text, status=status)
        if status == 403:
            if "change your password" in text:
                return PasswordChangeRequired(text, status=status)
            if not await self._logged_in():
                return SessionLost("Indico no longer knows this session", status=status)
            return NotAllowed(text, status=status)
        if status == 404:
            return Missing(text, status=status)
        if status == 422:
            return BookingRefused(text, status=status)
        return UnexpectedAnswer(text, status=status)

    async def _logged_in(self) -> bool:
        try:
            response = await self._request.get(
                self.base_url + "/rooms/api/user/",
                headers=self._headers(),
                timeout=self._timeout_ms,
                max_redirects=0,
                fail_on_status_code=False,
            )
        except PlaywrightError:
            return True  # cannot tell: report the original 403
        return response.ok
