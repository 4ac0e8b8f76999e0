"""``FakeTelegram``: the Bot API fake as an async context manager for tests and benchmarks."""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from tests.fakes.telegram.bot_methods import BotMethods
from tests.fakes.telegram.clock import Clock, SystemClock
from tests.fakes.telegram.messages import MessageMethods
from tests.fakes.telegram.ratelimit import RateLimiter, RateLimits
from tests.fakes.telegram.server import ApiServer, HeldCall, InjectedError
from tests.fakes.telegram.state import (
    CallbackAnswer,
    Chat,
    RecordedCall,
    StoredMessage,
    TelegramState,
)
from tests.fakes.telegram.updates import UpdateQueue
from tests.fakes.telegram.users import MessageTimeout, SimUser
from tests.fakes.telegram.webhook import WebhookDelivery

__all__ = ["FakeTelegram"]


class _Lifecycle(enum.Enum):
    UNOPENED = "unopened"
    OPEN = "open"
    CLOSED = "closed"


class FakeTelegram:
    """A Bot API server on 127.0.0.1 that validates, throttles and records like Telegram.

    Hook aiogram to it with
    ``AiohttpSession(api=TelegramAPIServer.from_base(tg.api_base))``.
    """

    def __init__(
        self,
        token: str = "123456:TEST",
        *,
        rate_limits: RateLimits | None = None,
        clock: Clock | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_username: str = "club_manager_test_bot",
        bot_name: str = "Club Manager",
        callback_query_ttl: float = 60.0,
        webhook_retry_delay: float = 0.2,
    ) -> None:
        self.token = token
        self.clock: Clock = clock or SystemClock()
        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 1
        bot_user = {"id": bot_id, "is_bot": True, "first_name": bot_name, "username": bot_username}
        self.state = TelegramState(clock=self.clock, bot_user=bot_user)
        self.queue = UpdateQueue()
        self._messages = MessageMethods(self.state, callback_query_ttl=callback_query_ttl)
        self._bot = BotMethods(
            self.state,
            self.queue,
            on_webhook_reply=self._webhook_reply,
            webhook_retry_delay=webhook_retry_delay,
        )
        self.server = ApiServer(
            token=token, state=self.state, messages=self._messages, bot=self._bot
        )
        self.set_rate_limits(rate_limits)
        self._host, self._port = host, port
        self._runner: web.AppRunner | None = None
        self._lifecycle = _Lifecycle.UNOPENED
        self._users: dict[int, SimUser] = {}

    # lifecycle -----------------------------------------------------------------------
    async def start(self) -> None:
        if self._lifecycle is not _Lifecycle.UNOPENED:
            raise RuntimeError(f"FakeTelegram is {self._lifecycle.value}")
        self._runner = web.AppRunner(
            self.server.app(), handler_cancellation=True, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._lifecycle = _Lifecycle.OPEN

    async def close(self) -> None:
        if self._lifecycle is not _Lifecycle.OPEN:
            return
        self._lifecycle = _Lifecycle.CLOSED
        self.queue.close()  # ends long polls at once
        await self._bot.delete_webhook({})
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:PORT``, for ``TelegramAPIServer.from_base``."""
        return f"http://{self._host}:{self._port}"

    # users and chats -----------------------------------------------------------------
    def user(
        self,
        user_id: int,
        first_name: str = "User",
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
    ) -> SimUser:
        """The simulated user ``user_id`` (created on first use); chat id == user id."""
        if user_id not in self._users:
            chat = Chat(
                id=user_id,
                first_name=first_name,
                last_name=last_name,
                username=username,
                language_code=language_code,
            )
            self.state.chats[user_id] = chat
            self._users[user_id] = SimUser(chat, state=self.state, queue=self.queue)
        return self._users[user_id]

    def member(
        self,
        group_id: int,
        user_id: int,
        first_name: str = "User",
        *,
        admin: bool = False,
        language_code: str | None = None,
    ) -> SimUser:
        """User ``user_id`` writing in the group ``group_id`` (negative, as Telegram's are),
        the group created on first use; ``admin`` makes them one of its administrators."""
        group = self.state.chats.setdefault(
            group_id, Chat(id=group_id, type="supergroup", title=f"Group {group_id}")
        )
        if admin:
            group.admins.add(user_id)
        person = Chat(id=user_id, first_name=first_name, language_code=language_code)
        return SimUser(group, state=self.state, queue=self.queue, person=person)

    def messages(self, chat_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        return self.state.bot_messages(chat_id, include_deleted=include_deleted)

    def put_update(self, body: dict[str, Any]) -> dict[str, Any]:
        """Queue a raw update (without ``update_id``); returns it with its new id."""
        return self.queue.put(body)

    def redeliver(self, update: dict[str, Any]) -> None:
        """Deliver an update again with the same ``update_id`` (polling or webhook)."""
        self.queue.redeliver(update)

    # records -------------------------------------------------------------------------
    @property
    def calls(self) -> list[RecordedCall]:
        return list(self.state.calls)

    def calls_of(self, method: str) -> list[RecordedCall]:
        return [c for c in self.state.calls if c.method.lower() == method.lower()]

    @property
    def callback_answers(self) -> list[CallbackAnswer]:
        return list(self.state.callback_answers)

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        return self.queue.pending

    @property
    def webhook(self) -> WebhookDelivery | None:
        """The active webhook (config, ``attempts``, ``delivered``), None in polling mode."""
        return self._bot.delivery

    @property
    def delivered_updates(self) -> list[dict[str, Any]]:
        """Updates the current webhook accepted."""
        return list(self._bot.delivery.delivered) if self._bot.delivery else []

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = 10.0) -> None:
        """Wait until ``condition()`` holds; checked after every change the fake sees."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self.state.wait_change(remaining)
            except TimeoutError:
                raise MessageTimeout(f"condition not met within {timeout}s") from None

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[RecordedCall], bool] | None = None,
        *,
        timeout: float = 10.0,
        start: int = 0,
    ) -> RecordedCall:
        """Wait for a recorded call of ``method`` (index >= ``start`` in :attr:`calls`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for call in self.state.calls[start:]:
                if call.method.lower() == method.lower() and (predicate is None or predicate(call)):
                    return call
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self.state.wait_change(remaining)
            except TimeoutError:
                raise MessageTimeout(f"no {method} call within {timeout}s") from None

    # knobs ---------------------------------------------------------------------------
    def set_rate_limits(self, limits: RateLimits | None) -> None:
        """Turn flood control on (fresh buckets) or off (None)."""
        self.server.limiter = RateLimiter(limits, self.clock) if limits else None

    def inject_error(
        self,
        *,
        method: str | None = None,
        error_code: int = 500,
        times: int = 1,
        retry_after: int | None = None,
        description: str | None = None,
    ) -> InjectedError:
        """Make the next ``times`` calls of ``method`` (any if None) fail with this error."""
        injected = InjectedError(method, error_code, times, retry_after, description)
        self.server.injected.append(injected)
        return injected

    def hold(
        self, method: str, match: Callable[[dict[str, Any]], bool], *, made_first: bool = False
    ) -> HeldCall:
        """Hold the calls of ``method`` that ``match`` (see ``HeldCall``) until released."""
        held = HeldCall(method, match, made_first=made_first)
        self.server.held.append(held)
        return held

    async def _webhook_reply(self, method: str, params: dict[str, Any]) -> None:
        await self.server.execute(method, params, token=self.token)
