"""Webhook mode of the fake Telegram server against aiogram's SimpleRequestHandler."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot, Dispatcher, Router
from aiogram.exceptions import TelegramBadRequest, TelegramConflictError
from aiogram.methods import SendMessage
from aiogram.types import Message
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.echo import echo_dispatcher
from tests.fakes.telegram.testing import aiogram_bot


@contextlib.asynccontextmanager
async def webhook_server(handler: SimpleRequestHandler) -> AsyncIterator[str]:
    """Serve ``handler`` on a free local port; yields the webhook URL."""
    app = web.Application()
    handler.register(app, path="/webhook")
    runner = web.AppRunner(app, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/webhook"
    finally:
        await handler.close()
        await runner.cleanup()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(webhook_retry_delay=0.05) as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with aiogram_bot(tg) as client:
        yield client


async def test_updates_are_posted_with_the_secret_and_polling_conflicts(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(1001, "Anna")
    handler = SimpleRequestHandler(echo_dispatcher(), bot, secret_token="s3cret-token_1")
    long_poll = asyncio.create_task(bot.get_updates(timeout=10))
    await asyncio.sleep(0.1)  # the poll is waiting on the server
    async with webhook_server(handler) as url:
        assert await bot.set_webhook(url, secret_token="s3cret-token_1") is True
        with pytest.raises(TelegramConflictError, match="while webhook is active"):
            await long_poll
        await user.send("через вебхук")
        reply = await user.wait_for_message(lambda m: m.text == "через вебхук", timeout=5)
        info = await bot.get_webhook_info()
        delivered = tg.delivered_updates
        with pytest.raises(
            TelegramConflictError, match="can't use getUpdates method while webhook"
        ):
            await bot.get_updates(timeout=0)
        assert await bot.delete_webhook() is True
    assert reply.message_id == 2
    assert (info.url, info.pending_update_count, info.last_error_message) == (url, 0, None)
    assert [u["message"]["text"] for u in delivered] == ["через вебхук"]
    await user.send("после вебхука")
    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates if u.message] == ["после вебхука"]
    assert (await bot.get_webhook_info()).url == ""


async def test_rejected_delivery_is_reported_and_retried(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    handler = SimpleRequestHandler(echo_dispatcher(), bot, secret_token="other")
    async with webhook_server(handler) as url:
        await bot.set_webhook(url, secret_token="right")
        await user.send("hi")
        delivery = tg.webhook
        assert delivery is not None
        await tg.wait_until(lambda: delivery.attempts >= 2, timeout=5)
        info = await bot.get_webhook_info()
        await bot.delete_webhook(drop_pending_updates=True)
    assert info.pending_update_count == 1
    assert info.last_error_message == "Wrong response from the webhook: 401 Unauthorized"
    assert user.messages == [] and tg.pending_updates == []


async def test_method_in_webhook_reply_is_executed(tg: FakeTelegram, bot: Bot) -> None:
    router = Router()

    @router.message()
    async def reply_inline(message: Message) -> SendMessage:
        return message.answer(f"в ответе: {message.text}")

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    user = tg.user(1001)
    handler = SimpleRequestHandler(dispatcher, bot, handle_in_background=False)
    async with webhook_server(handler) as url:
        await bot.set_webhook(url)
        await user.send("привет")
        msg = await user.wait_for_message(timeout=5)
    assert msg.text == "в ответе: привет"
    assert tg.calls_of("sendMessage")[0].params == {"chat_id": 1001, "text": msg.text}


async def test_set_webhook_validation(bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="secret token contains unallowed characters"):
        await bot.set_webhook("https://example.org/hook", secret_token="bad secret!")
    with pytest.raises(TelegramBadRequest, match="bad webhook"):
        await bot.set_webhook("ftp://example.org/hook")
