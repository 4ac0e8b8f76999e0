"""Flood control, callback expiry and injected failures of the fake Telegram server."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter, TelegramServerError
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from tests.fakes.telegram import FakeTelegram, ManualClock, RateLimits
from tests.fakes.telegram.testing import aiogram_bot

QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
YES = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="Да", callback_data="yes")]])


async def test_callback_query_expires() -> None:
    clock = ManualClock()
    async with FakeTelegram(clock=clock, callback_query_ttl=15) as tg, aiogram_bot(tg) as client:
        user = tg.user(1001)
        await client.send_message(1001, "x", reply_markup=YES)
        query_id = await user.tap("Да")
        clock.advance(16)
        with pytest.raises(TelegramBadRequest, match=QUERY_TOO_OLD):
            await client.answer_callback_query(query_id)


async def test_per_chat_rate_limit_and_refill() -> None:
    clock = ManualClock()
    async with FakeTelegram(rate_limits=RateLimits(), clock=clock) as tg, aiogram_bot(tg) as bot:
        tg.user(1001)
        for i in range(3):  # the burst
            await bot.send_message(1001, f"m{i}")
        with pytest.raises(TelegramRetryAfter) as exc_info:
            await bot.send_message(1001, "too fast")
        assert exc_info.value.retry_after == 1
        assert tg.calls[-1].response == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
        clock.advance(1.0)
        await bot.send_message(1001, "after refill")
        tg.set_rate_limits(None)
        for i in range(5):
            await bot.send_message(1001, f"unthrottled {i}")


async def test_global_rate_limit() -> None:
    limits = RateLimits(per_chat_burst=10, global_burst=4, global_rate=2)
    async with FakeTelegram(rate_limits=limits, clock=ManualClock()) as tg, aiogram_bot(tg) as bot:
        for chat_id in range(1, 6):
            tg.user(chat_id)
        for chat_id in range(1, 5):
            await bot.send_message(chat_id, "hi")
        with pytest.raises(TelegramRetryAfter) as exc_info:
            await bot.send_message(5, "hi")
        assert exc_info.value.retry_after == 1


async def test_injected_errors_are_one_off() -> None:
    async with FakeTelegram() as tg, aiogram_bot(tg) as bot:
        tg.user(1001)
        tg.inject_error(method="sendMessage", error_code=500, times=1)
        tg.inject_error(method="sendMessage", error_code=429, retry_after=7)
        assert await bot.send_chat_action(1001, "typing") is True  # other methods unaffected
        with pytest.raises(TelegramServerError, match="Internal Server Error"):
            await bot.send_message(1001, "a")
        with pytest.raises(TelegramRetryAfter) as exc_info:
            await bot.send_message(1001, "a")
        assert exc_info.value.retry_after == 7
        assert (await bot.send_message(1001, "a")).text == "a"


async def test_edits_count_against_the_chat_limit() -> None:
    limits = RateLimits(per_chat_burst=2)
    async with FakeTelegram(rate_limits=limits, clock=ManualClock()) as tg, aiogram_bot(tg) as bot:
        tg.user(1001)
        sent = await bot.send_message(1001, "v1")
        await bot.edit_message_text("v2", chat_id=1001, message_id=sent.message_id)
        with pytest.raises(TelegramRetryAfter):
            await bot.edit_message_text("v3", chat_id=1001, message_id=sent.message_id)
        assert await bot.delete_message(1001, sent.message_id) is True  # not throttled
