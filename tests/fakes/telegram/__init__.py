"""A fake Telegram Bot API server with simulated users, for tests and benchmarks.

async with FakeTelegram() as tg:
    bot = Bot(tg.token, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.api_base)))
    user = tg.user(1001, "Anna")
    await user.send("/start")
    reply = await user.wait_for_message(lambda m: "Hi" in (m.text or ""))
"""

from __future__ import annotations

from tests.fakes.telegram.clock import Clock, ManualClock, SystemClock
from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.fake import FakeTelegram
from tests.fakes.telegram.ratelimit import RateLimits
from tests.fakes.telegram.server import InjectedError
from tests.fakes.telegram.state import (
    Button,
    CallbackAnswer,
    Edit,
    RecordedCall,
    StoredMessage,
)
from tests.fakes.telegram.users import MessageTimeout, NoSuchButton, SimUser

__all__ = [
    "ApiError",
    "Button",
    "CallbackAnswer",
    "Clock",
    "Edit",
    "FakeTelegram",
    "InjectedError",
    "ManualClock",
    "MessageTimeout",
    "NoSuchButton",
    "RateLimits",
    "RecordedCall",
    "SimUser",
    "StoredMessage",
    "SystemClock",
]
