"""Webhook mode: POST each pending update to the bot's URL until it answers 2xx."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from tests.fakes.telegram.clock import Clock
from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.params import decode_params, read_multipart
from tests.fakes.telegram.updates import UpdateQueue

__all__ = ["SECRET_HEADER", "Webhook", "WebhookDelivery"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
ReplyHandler = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class Webhook:
    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None
    last_error_date: int | None = None
    last_error_message: str | None = None

    def info(self, pending_update_count: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "url": self.url,
            "has_custom_certificate": False,
            "pending_update_count": pending_update_count,
            "max_connections": self.max_connections,
            "ip_address": "127.0.0.1",
        }
        if self.allowed_updates is not None:
            data["allowed_updates"] = self.allowed_updates
        if self.last_error_date is not None:
            data["last_error_date"] = self.last_error_date
            data["last_error_message"] = self.last_error_message
        return data


class WebhookDelivery:
    """One background task delivering updates in order, with a short retry delay on failure.

    A JSON body with a ``method`` key in the bot's reply is executed as an API call,
    as Telegram does for replies to webhook requests.
    """

    def __init__(
        self,
        webhook: Webhook,
        queue: UpdateQueue,
        *,
        clock: Clock,
        on_reply: ReplyHandler,
        on_attempt: Callable[[], None] = lambda: None,
        retry_delay: float = 0.2,
    ) -> None:
        self.webhook = webhook
        self._queue = queue
        self._clock = clock
        self._on_reply = on_reply
        self._on_attempt = on_attempt
        self.attempts = 0
        self._retry_delay = retry_delay
        self._task: asyncio.Task[None] | None = None
        self.delivered: list[dict[str, Any]] = []

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"webhook {self.webhook.url}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        headers = {}
        if self.webhook.secret_token:
            headers[SECRET_HEADER] = self.webhook.secret_token
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while (update := await self._queue.next_update()) is not None:
                ok = await self._deliver(session, update, headers)
                self.attempts += 1
                if ok:
                    self._queue.confirm(update["update_id"])
                    self.delivered.append(update)
                self._on_attempt()
                if not ok:
                    await asyncio.sleep(self._retry_delay)  # Telegram backs off too

    async def _deliver(
        self, session: aiohttp.ClientSession, update: dict[str, Any], headers: dict[str, str]
    ) -> bool:
        try:
            async with session.post(self.webhook.url, json=update, headers=headers) as resp:
                if not 200 <= resp.status < 300:
                    self._fail(f"Wrong response from the webhook: {resp.status} {resp.reason}")
                    return False
                reply = await self._read_reply(resp)
        except (aiohttp.ClientError, TimeoutError) as exc:
            self._fail(f"Connection error: {exc.__class__.__name__}")
            return False
        if isinstance(reply.get("method"), str):
            params = {k: v for k, v in reply.items() if k != "method"}
            await self._on_reply(reply["method"], params)
        return True

    @staticmethod
    async def _read_reply(resp: aiohttp.ClientResponse) -> dict[str, Any]:
        """A method call in the reply body (JSON or multipart form), or ``{}``."""
        if resp.content_type == "multipart/form-data":
            with contextlib.suppress(ValueError, ApiError):
                return await read_multipart(resp)
            return {}
        body = await resp.read()
        with contextlib.suppress(ValueError, ApiError):
            reply = json.loads(body) if body else None
            if isinstance(reply, dict):
                return decode_params(reply)
        return {}

    def _fail(self, message: str) -> None:
        self.webhook.last_error_date = int(self._clock.now())
        self.webhook.last_error_message = message
