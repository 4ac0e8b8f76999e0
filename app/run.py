"""Entry points: long polling (default) or a webhook served by aiohttp."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from urllib.parse import urlsplit

import structlog
from aiohttp import web
from pydantic import SecretStr

from app.compose import open_core, open_settings_storage
from app.runtime import run as run_loop
from app.runtime import settle_heap
from app.systems import preload_adapter
from bot.dialogues import dialogue_storage
from bot.factory import BotApp, check_access, open_bot_app, webhook_app
from bot.metrics_http import metrics_app
from core.metrics import Metrics
from core.settings import Settings
from storage.errors import translate_errors

__all__ = ["poll", "preload", "run", "serve", "serve_metrics", "serve_webhook"]

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
    served = webhook_app(app, path=path, secret_token=secret, host=host)
    runner = web.AppRunner(served, access_log=None)
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


@contextlib.asynccontextmanager
async def serve_metrics(
    metrics: Metrics, *, host: str, port: int, token: SecretStr | None = None
) -> AsyncIterator[web.AppRunner]:
    """``GET /metrics`` on a server of its own (long polling has no web server)."""
    runner = web.AppRunner(metrics_app(metrics, host=host, token=token), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("metrics.serving", host=host, port=port)
        yield runner
    finally:
        await runner.cleanup()


async def serve(
    settings: Settings,
    *,
    webhook_url: str | None = None,
    host: str = "0.0.0.0",
    port: int = 8080,
    metrics_port: int | None = None,
) -> None:
    """The bot; its metrics on the webhook's ``/metrics``, or in polling mode on
    ``metrics_port`` (none: not served, still counted)."""
    check_access(settings)  # a missing token fails before storage starts
    log.info("app.starting")  # the start-up phases are logged (bench/restart.py reads them)
    metrics = Metrics()
    async with AsyncExitStack() as stack:
        storage = await stack.enter_async_context(open_settings_storage(settings))
        log.info("storage.opened")
        # The dialogues wait in the app's Redis as long as a question may wait.
        dialogues = dialogue_storage(
            storage.redis,
            ttl_seconds=settings.runner.waiting_ttl_seconds,
            translate=translate_errors,
        )
        app = await stack.enter_async_context(
            open_bot_app(
                settings,
                core=lambda sink: open_core(settings, storage, sink, metrics=metrics),
                claims=storage.claims,
                dialogues=dialogues,
                metrics=metrics,
            )
        )
        settle_heap()
        if webhook_url is None:
            if metrics_port is not None:
                await stack.enter_async_context(
                    serve_metrics(
                        metrics,
                        host=host,
                        port=metrics_port,
                        token=settings.security.metrics_token,
                    )
                )
            await poll(app)
            return
        await stack.enter_async_context(serve_webhook(app, url=webhook_url, host=host, port=port))
        await _until_signal()


def preload(settings: Settings) -> None:
    """Import what ``serve`` would import lazily (the configured adapter, the in-process
    reference portal), so a supervisor's forked workers start with nothing left to import."""
    preload_adapter(settings.portal.kind)
    if not settings.portal.url:
        import portal.server  # noqa: F401


def run(
    settings: Settings,
    *,
    webhook_url: str | None = None,
    host: str = "0.0.0.0",
    port: int = 8080,
    metrics_port: int | None = None,
) -> None:
    """Run the bot until Ctrl-C / SIGTERM."""
    run_loop(
        serve(settings, webhook_url=webhook_url, host=host, port=port, metrics_port=metrics_port)
    )
