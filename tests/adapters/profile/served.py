"""A small aiohttp site on a free port of this machine, for the profile tests that need
real pages in a real Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web

__all__ = ["served"]


@asynccontextmanager
async def served(app: web.Application) -> AsyncIterator[str]:
    """``app`` on a free port of this machine; its address."""
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()
