"""The webhook's request handler: only a well-formed update reaches the dispatcher.

aiogram's handler parses the body inside the task it starts, so an empty, invalid or
deeply nested body (``RecursionError`` from the JSON parser) became an HTTP 500 with a
traceback, and valid JSON that is no update a "Task exception was never retrieved". Here
the body is parsed and validated first: anything else is answered 400 and handled not at
all, and a task that still fails is logged, never left unretrieved.

When the webhook stops, aiogram's handler closes the bot's HTTP session at once. A reply
in flight was then cut off after Telegram had it, and the outbox's retry sent it a
second time. Here stopping waits for the updates already taken; the session is the bot
app's to close, after its outbox has drained.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from aiogram import Bot
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from pydantic import ValidationError

__all__ = ["UpdateRequestHandler"]

log = structlog.get_logger("clubman.bot.webhook")


class UpdateRequestHandler(SimpleRequestHandler):
    async def _handle_request_background(self, bot: Bot, request: web.Request) -> web.Response:
        update = await self._update_of(bot, request)
        if update is None:
            return web.Response(status=400, text="Bad Request")
        task = asyncio.create_task(self._feed(bot, update))
        self._background_feed_update_tasks.add(task)
        task.add_done_callback(self._background_feed_update_tasks.discard)
        return web.json_response({}, dumps=bot.session.json_dumps)

    @staticmethod
    async def _update_of(bot: Bot, request: web.Request) -> Update | None:
        try:
            body: Any = bot.session.json_loads(await request.text())
            return Update.model_validate(body, context={"bot": bot})
        except (ValueError, RecursionError, ValidationError) as exc:
            # ValidationError is a ValueError; named for the reader. Never the body: secrets.
            log.info("webhook.malformed", error=type(exc).__name__)
            return None

    async def _feed(self, bot: Bot, update: Update) -> None:
        try:
            await self.dispatcher.feed_update(bot, update, **self.data)
        except Exception:  # noqa: BLE001 — the errors router handles ours; log the rest once
            log.exception("webhook.update_failed", update_id=update.update_id)

    async def close(self) -> None:
        """Wait for the updates already taken (their replies are in the outbox after it);
        the bot's session stays open for the app to close."""
        if self._background_feed_update_tasks:
            await asyncio.gather(*self._background_feed_update_tasks, return_exceptions=True)
