"""An aiohttp server on 127.0.0.1 with a script queue; vendors subclass it."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from tests.fakes.llm.script import Answer, Fail, RecordedRequest, Step

__all__ = ["FakeVendorServer"]

_AUTH_HEADERS = ("authorization", "x-api-key", "api-key")


class FakeVendorServer:
    """Answers ``POST <route>`` from ``script`` in order; records every request."""

    route = "/"

    def __init__(self, *, api_key: str | None = None) -> None:
        self.api_key = api_key
        self.script: deque[Step] = deque()
        self.requests: list[RecordedRequest] = []
        self._runner: web.AppRunner | None = None
        self._port = 0

    # --- lifecycle -----------------------------------------------------------------------
    async def start(self) -> Self:
        app = web.Application()
        app.router.add_post(self.route, self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    # --- scripting -----------------------------------------------------------------------
    def push(self, *steps: Step) -> None:
        self.script.extend(steps)

    def extend(self, steps: Iterable[Step]) -> None:
        self.script.extend(steps)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests]

    # --- vendor specifics ----------------------------------------------------------------
    def success_body(self, answer: Answer, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        raise NotImplementedError

    def error_headers(self) -> dict[str, str]:
        return {}

    # --- handling ------------------------------------------------------------------------
    def _credential(self, request: web.Request) -> tuple[str | None, str | None]:
        for name in _AUTH_HEADERS:
            value = request.headers.get(name)
            if value:
                return name, value.removeprefix("Bearer ").strip()
        return None, None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            body = {}
        auth_header, key = self._credential(request)
        auth_ok = self.api_key is None or key == self.api_key
        headers = {
            k.lower(): v for k, v in request.headers.items() if k.lower() not in _AUTH_HEADERS
        }
        self.requests.append(
            RecordedRequest(
                method=request.method,
                path=request.path,
                headers=headers,
                body=body,
                auth_header=auth_header,
                auth_ok=auth_ok,
            )
        )
        if not auth_ok:
            return self._error(401, "invalid x-api-key" if key is None else "invalid api key")
        step: Step = self.script.popleft() if self.script else Fail(500, message="script exhausted")
        if step.delay:
            await asyncio.sleep(step.delay)
        if isinstance(step, Fail):
            message = step.message or f"fake error {step.status}"
            if step.echo_key:
                message = f"Incorrect API key provided: {key}"
            return self._error(step.status, message, retry_after=step.retry_after)
        return web.json_response(self.success_body(step, body))

    def _error(
        self, status: int, message: str, *, retry_after: float | None = None
    ) -> web.Response:
        headers = self.error_headers()
        if retry_after is not None:
            headers["retry-after"] = f"{retry_after:g}"
        return web.json_response(self.error_body(status, message), status=status, headers=headers)
