"""Helpers for tests driving a real aiogram bot against ``FakeTelegram``."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from tests.fakes.telegram.fake import FakeTelegram

__all__ = ["aiogram_bot", "free_port", "polling"]


@contextlib.asynccontextmanager
async def aiogram_bot(tg: FakeTelegram, *, token: str | None = None) -> AsyncIterator[Bot]:
    """A real aiogram ``Bot`` pointed at the fake; its HTTP session is closed on exit."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(tg.api_base))
    bot = Bot(token or tg.token, session=session)
    try:
        yield bot
    finally:
        await bot.session.close()


@contextlib.asynccontextmanager
async def polling(
    dispatcher: Dispatcher, bot: Bot, *, polling_timeout: int = 5
) -> AsyncIterator[asyncio.Task[None]]:
    """Run ``dispatcher.start_polling`` in the background; stop it cleanly on exit."""
    started = asyncio.Event()

    async def _started() -> None:
        started.set()

    dispatcher.startup.register(_started)
    task = asyncio.create_task(
        dispatcher.start_polling(
            bot, handle_signals=False, close_bot_session=False, polling_timeout=polling_timeout
        )
    )
    waiter = asyncio.create_task(started.wait())
    await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    try:
        yield task
    finally:
        if task.done():
            await task  # surface a crash
        else:
            await dispatcher.stop_polling()
            await task


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
