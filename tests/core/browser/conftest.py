"""The guard tests' local site, one Chromium for the package, and a guarded page."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest_asyncio
from aiohttp import WSMsgType, web
from playwright.async_api import BrowserContext, Page

from core.browser import BrowserPool, NetworkGuard
from storage.process import free_port
from tests.core.browser.guarded import OPENER, PAGE, POPUP, WAIT, Site


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def site() -> AsyncIterator[Site]:
    served = Site(url="")

    def html(text: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def shown(request: web.Request) -> web.Response:
            return web.Response(text=text, content_type="text/html")

        return shown

    async def sink(request: web.Request) -> web.Response:
        served.received.append(f"{request.method} {request.path}")
        return web.Response(text="ok")

    async def acting(request: web.Request) -> web.Response:
        served.received.append(f"{request.method} {request.path}")
        raise web.HTTPSeeOther("/page")  # done: see the page

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                served.received.append(f"WS {message.data}")
        return ws

    app = web.Application()
    app.router.add_get("/page", html(PAGE))
    app.router.add_get("/opener", html(OPENER))
    app.router.add_get("/popup", html(POPUP))
    app.router.add_get("/ws", socket)
    app.router.add_route("*", "/sink/{name}", sink)
    app.router.add_route("*", "/acts/{name}", acting)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    served.url = f"http://127.0.0.1:{port}"
    yield served
    await runner.cleanup()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=2) as opened:
        yield opened


@pytest_asyncio.fixture(loop_scope="module")
async def context(pool: BrowserPool, site: Site) -> AsyncIterator[BrowserContext]:
    site.received.clear()
    async with pool.context() as opened:
        opened.set_default_timeout(WAIT * 1000)
        yield opened


@pytest_asyncio.fixture(loop_scope="module")
async def guard(context: BrowserContext) -> NetworkGuard:
    watched = NetworkGuard(context)
    await watched.watch()
    return watched


@pytest_asyncio.fixture(loop_scope="module")
async def page(context: BrowserContext, guard: NetworkGuard, site: Site) -> Page:
    opened = await context.new_page()
    await opened.goto(site.at("/page"))
    return opened
