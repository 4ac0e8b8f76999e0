"""Run the legacy site: in-process for tests and demos, or in the foreground for the CLI."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

from portal.clock import Clock
from portal.legacy.app import create_app

__all__ = ["RunningLegacy", "running_legacy", "serve"]


@dataclass(frozen=True, slots=True)
class RunningLegacy:
    url: str  # e.g. http://127.0.0.1:8710, no trailing slash
    host: str
    port: int
    app: web.Application


@asynccontextmanager
async def running_legacy(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    seed: int | None = 1,
    test_api: bool = False,
    clock: Clock | None = None,
) -> AsyncIterator[RunningLegacy]:
    """Serve the site on ``host:port`` (0 = a free port) until the block exits."""
    app = create_app(seed=seed, test_api=test_api, clock=clock)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = int(runner.addresses[0][1])
        yield RunningLegacy(url=f"http://{host}:{bound}", host=host, port=bound, app=app)
    finally:
        await runner.cleanup()


def serve(*, host: str, port: int, seed: int | None, test_api: bool) -> None:
    """Serve in the foreground until Ctrl-C (or SIGTERM), then shut down cleanly."""

    async def forever() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # e.g. on Windows
                loop.add_signal_handler(sig, stop.set)
        async with running_legacy(host=host, port=port, seed=seed, test_api=test_api) as site:
            print(f"Legacy site at {site.url}" + (" (test API on)" if test_api else ""), flush=True)
            await stop.wait()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(forever())
