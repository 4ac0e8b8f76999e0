"""HTTP side of the fake: parse Bot API requests, authorise, throttle, dispatch, record."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.telegram.bot_methods import BotMethods
from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.messages import MessageMethods
from tests.fakes.telegram.params import read_params
from tests.fakes.telegram.ratelimit import LIMITED_METHODS, RateLimiter, too_many_requests
from tests.fakes.telegram.state import RecordedCall, TelegramState

__all__ = ["ApiServer", "HeldCall", "InjectedError"]

JsonDict = dict[str, Any]
Handler = Callable[[JsonDict], Awaitable[Any]]
_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]+$")
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


@dataclass
class InjectedError:
    """A one-off failure: the next ``times`` calls of ``method`` (any method if None) fail."""

    method: str | None
    error_code: int
    times: int = 1
    retry_after: int | None = None
    description: str | None = None

    def matches(self, method: str) -> bool:
        return self.times > 0 and (self.method is None or self.method.lower() == method.lower())

    def to_error(self) -> ApiError:
        if self.error_code == 429:
            return too_many_requests(self.retry_after or 1)
        description = self.description or _DEFAULT_DESCRIPTIONS.get(self.error_code, "Error")
        return ApiError(self.error_code, description, retry_after=self.retry_after)


@dataclass
class HeldCall:
    """The next ``times`` calls of ``method`` that ``match`` are held: ``arrived`` is set and
    the call waits for ``released``, made only then or, with ``made_first``, made at once
    and its answer held back. A client that goes away meanwhile never hears back (the
    messenger's side of a request whose outcome its sender never learns)."""

    method: str
    match: Callable[[JsonDict], bool]
    made_first: bool = False
    times: int = 1
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def matches(self, method: str, params: JsonDict) -> bool:
        return self.times > 0 and self.method.lower() == method.lower() and self.match(params)

    async def through(self, handler: Handler, params: JsonDict) -> Any:
        self.times -= 1
        self.arrived.set()
        if self.made_first:
            result = await handler(params)
            await self.released.wait()
            return result
        await self.released.wait()
        return await handler(params)


class ApiServer:
    def __init__(
        self,
        *,
        token: str,
        state: TelegramState,
        messages: MessageMethods,
        bot: BotMethods,
    ) -> None:
        self.token = token
        self.state = state
        self.limiter: RateLimiter | None = None
        self.injected: list[InjectedError] = []
        self.held: list[HeldCall] = []
        self._handlers: dict[str, Handler] = {
            "getme": bot.get_me,
            "getupdates": bot.get_updates,
            "setwebhook": bot.set_webhook,
            "deletewebhook": bot.delete_webhook,
            "getwebhookinfo": bot.get_webhook_info,
            "setmycommands": bot.set_my_commands,
            "getmycommands": bot.get_my_commands,
            "deletemycommands": bot.delete_my_commands,
            "sendmessage": messages.send_message,
            "sendphoto": messages.send_photo,
            "senddocument": messages.send_document,
            "editmessagetext": messages.edit_message_text,
            "editmessagereplymarkup": messages.edit_message_reply_markup,
            "deletemessage": messages.delete_message,
            "sendchataction": messages.send_chat_action,
            "getchatmember": messages.get_chat_member,
            "answercallbackquery": messages.answer_callback_query,
        }

    def app(self) -> web.Application:
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        return app

    async def _handle(self, request: web.Request) -> web.Response:
        token, method = request.match_info["token"], request.match_info["method"]
        try:
            params = await read_params(request)
        except ApiError as exc:
            params, status, body = {}, exc.error_code, exc.body()
        else:
            status, body = await self.execute(
                method, params, token=token, content_type=request.content_type
            )
        return web.json_response(body, status=status)

    async def execute(
        self, method: str, params: JsonDict, *, token: str, content_type: str = ""
    ) -> tuple[int, JsonDict]:
        """Run one API call and record it; returns ``(http_status, response_body)``."""
        started = self.state.clock.now()
        try:
            result = await self._run(method, params, token=token)
        except ApiError as exc:
            status, body = exc.error_code, exc.body()
        else:
            status, body = 200, {"ok": True, "result": result}
        self.state.calls.append(
            RecordedCall(method, params, started, status, body, content_type=content_type)
        )
        self.state.touch()
        return status, body

    async def _run(self, method: str, params: JsonDict, *, token: str) -> Any:
        if not _TOKEN.match(token):
            raise ApiError(404, "Not Found")
        if token != self.token:
            raise ApiError(401, "Unauthorized")
        handler = self._handlers.get(method.lower())
        if handler is None:
            raise ApiError(404, "Not Found")
        for injected in self.injected:
            if injected.matches(method):
                injected.times -= 1
                raise injected.to_error()
        if self.limiter is not None and method.lower() in LIMITED_METHODS:
            self.limiter.acquire(params.get("chat_id") or 0)
        held = next((h for h in self.held if h.matches(method, params)), None)
        return await (held.through(handler, params) if held else handler(params))
