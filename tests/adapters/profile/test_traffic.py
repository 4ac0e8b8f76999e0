"""What a page's scripts fetch (``adapters.profile.traffic``) on a small real site in a real
Chromium: a fetch of the page before, cancelled by loading the next one, is not the next
page's failure; a fetch of the page itself that fails is."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.traffic import Traffic
from core.browser import BrowserPool
from core.browser.retry import Transient
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")


_FETCHING = "<html><body>{what}<script>fetch('{path}')</script></body></html>"


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async def slow(_: web.Request) -> web.Response:
        await asyncio.sleep(3)  # still under way when the next page is loaded
        return web.json_response({})

    async def failing(_: web.Request) -> web.Response:
        return web.json_response({}, status=502)

    def page(what: str, path: str) -> web.Response:
        return web.Response(text=_FETCHING.format(what=what, path=path), content_type="text/html")

    async def answered(_: web.Request) -> web.Response:
        return web.json_response({})

    async def listing(_: web.Request) -> web.Response:
        return page("a list still loading", "/slow")

    async def following(_: web.Request) -> web.Response:
        return page("the next page", "/answered")

    async def broken(_: web.Request) -> web.Response:
        return page("a page whose data fails", "/failing")

    async def prefetching(_: web.Request) -> web.Response:
        # the next day fetched ahead, then given up by the page's own script (MRBS does)
        script = (
            "const ahead = new AbortController();"
            "fetch('/slow', {signal: ahead.signal}).catch(() => {});"
            "setTimeout(() => ahead.abort(), 200);"
        )
        text = f"<html><body>the day<script>{script}</script></body></html>"
        return web.Response(text=text, content_type="text/html")

    app = web.Application()
    app.router.add_get("/slow", slow)
    app.router.add_get("/failing", failing)
    app.router.add_get("/answered", answered)
    app.router.add_get("/list", listing)
    app.router.add_get("/next", following)
    app.router.add_get("/broken", broken)
    app.router.add_get("/prefetching", prefetching)
    async with served(app) as url:
        yield url


async def test_a_fetch_the_next_page_load_cancels_is_not_that_pages_failure(
    pool: BrowserPool, site: str
) -> None:
    traffic = Traffic(urlsplit(site).netloc)
    async with pool.context() as context:
        page = await context.new_page()
        traffic.watch(page)
        await page.goto(f"{site}/list")
        await page.wait_for_timeout(200)  # the list's fetch is under way
        cancelled: asyncio.Queue[str] = asyncio.Queue()
        page.on("requestfailed", lambda request: cancelled.put_nowait(request.url))
        traffic.watch(page)
        await page.goto(f"{site}/next")
        assert (await asyncio.wait_for(cancelled.get(), 10)).endswith("/slow")  # it did fail
        await traffic.quiet(page, timeout_ms=5000)  # and the next page is read as it is


async def test_a_fetch_of_the_page_itself_that_fails_is_transient(
    pool: BrowserPool, site: str
) -> None:
    traffic = Traffic(urlsplit(site).netloc)
    async with pool.context() as context:
        page = await context.new_page()
        traffic.watch(page)
        await page.goto(f"{site}/broken")
        with pytest.raises(Transient, match="HTTP 502 at /failing"):
            await traffic.quiet(page, timeout_ms=5000)


async def test_a_fetch_the_page_itself_gives_up_is_not_a_failure(
    pool: BrowserPool, site: str
) -> None:
    traffic = Traffic(urlsplit(site).netloc)
    async with pool.context() as context:
        page = await context.new_page()
        given_up: asyncio.Queue[str] = asyncio.Queue()
        page.on("requestfailed", lambda request: given_up.put_nowait(request.url))
        traffic.watch(page)
        await page.goto(f"{site}/prefetching")
        assert (await asyncio.wait_for(given_up.get(), 10)).endswith("/slow")  # it did fail
        await traffic.quiet(page, timeout_ms=5000)  # and the page is read as it is


_CHAINED = """<html><body><p id=shown>loading</p><script>
  // The page's script arrives late (as a chunk loaded after the page), asks for the
  // first part of its data, draws it, and only then asks for the rest.
  setTimeout(() => {
    const chunk = document.createElement("script");
    chunk.src = "/chunk.js";
    document.body.append(chunk);
  }, 50);
</script></body></html>"""

_CHUNK = """fetch("/first").then((r) => r.json()).then((first) => {
  const drawn = performance.now() + 250;  // slow to draw, as on a busy machine
  while (performance.now() < drawn) {}
  document.getElementById("shown").textContent = "first: " + first.n;
  requestAnimationFrame(() => fetch("/second").then((r) => r.json()).then((second) => {
    document.getElementById("shown").textContent = "all: " + (first.n + second.n);
  }));
});"""


@pytest_asyncio.fixture(loop_scope="session")
async def chained_site() -> AsyncIterator[str]:
    async def page(_: web.Request) -> web.Response:
        return web.Response(text=_CHAINED, content_type="text/html")

    async def chunk(_: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.Response(text=_CHUNK, content_type="application/javascript")

    async def first(_: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.json_response({"n": 1})

    async def second(_: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.json_response({"n": 2})

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/chunk.js", chunk)
    app.router.add_get("/first", first)
    app.router.add_get("/second", second)
    async with served(app) as url:
        yield url


async def test_a_page_is_quiet_once_it_drew_every_part_its_scripts_fetch(
    pool: BrowserPool, chained_site: str
) -> None:
    """The script comes after the page's load, and its second fetch only once the first
    answer is drawn, slowly: quiet is after both, never at a part drawn on the way."""
    traffic = Traffic(urlsplit(chained_site).netloc)
    async with pool.context() as context:
        page = await context.new_page()
        for _ in range(3):
            traffic.watch(page)
            await page.goto(chained_site)
            await page.wait_for_load_state("load")
            await traffic.quiet(page, timeout_ms=10_000)
            assert await page.inner_text("#shown") == "all: 3"
