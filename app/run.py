"""Entry points: long polling (default) or a webhook served by aiohttp."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import structlog
from aiohttp import web

from app.compose import open_core, open_settings_storage
from app.runtime import run as run_loop
from app.runtime import settle_heap
from app.systems import default_profile
from bot.factory import BotApp, check_access, open_bot_app, webhook_app
from core.settings import Settings

__all__ = ["poll", "preload", "run", "serve", "serve_webhook"]

log = structlog.get_logger("clubman.bot")


async def poll(app: BotApp, *, handle_signals: bool = True, polling_timeout: int = 10) -> None:
    """Long polling until stopped (a signal, or ``app.dispatcher.stop_polling()``)."""
    await app.bot.delete_webhook(drop_pending_updates=False)
    log.info("bot.polling", api=app.settings.telegram.api_base)
    await app.dispatcher.start_polling(
        app.bot,
        handle_signals=handle_signals,
        close_bot_session=False,
        polling_timeout=polling_timeout,
        allowed_updates=app.dispatcher.resolve_used_update_types(),
    )


@contextlib.asynccontextmanager
async def serve_webhook(
    app: BotApp, *, url: str, host: str, port: int, secret_token: str | None = None
) -> AsyncIterator[web.AppRunner]:
    """Serve the webhook on ``host:port`` at the path of ``url`` and register ``url`` with
    Telegram, with a fresh secret token unless one is given; unregister on exit."""
    secret = secret_token or secrets.token_urlsafe(32)
    path = urlsplit(url).path or "/"
    runner = web.AppRunner(webhook_app(app, path=path, secret_token=secret), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    try:
        await app.bot.set_webhook(
            url, secret_token=secret, allowed_updates=app.dispatcher.resolve_used_update_types()
        )
        log.info("bot.webhook", url=url, host=host, port=port)
        yield runner
    finally:
        with contextlib.suppress(Exception):
            await app.bot.delete_webhook()
        await runner.cleanup()


async def _until_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def serve(
    settings: Settings, *, webhook_url: str | None = None, host: str = "0.0.0.0", port: int = 8080
) -> None:
    check_access(settings)  # a missing token fails before storage starts
    log.info("app.starting")  # the start-up phases are logged (bench/restart.py reads them)
    async with open_settings_storage(settings) as storage:
        log.info("storage.opened")
        async with open_bot_app(
            settings,
            core=lambda sink: open_core(settings, storage, sink),
            claims=storage.claims,
        ) as app:
            settle_heap()
            if webhook_url is None:
                await poll(app)
                return
            async with serve_webhook(app, url=webhook_url, host=host, port=port):
                await _until_signal()


def preload(settings: Settings) -> None:
    """Import what ``serve`` would import lazily (the configured adapter, the in-process
    reference portal), so a supervisor's forked workers start with nothing left to import."""
    default_profile(settings.portal.kind)
    if not settings.portal.url:
        import portal.server  # noqa: F401


def run(
    settings: Settings, *, webhook_url: str | None = None, host: str = "0.0.0.0", port: int = 8080
) -> None:
    """Run the bot until Ctrl-C / SIGTERM."""
    run_loop(serve(settings, webhook_url=webhook_url, host=host, port=port))
