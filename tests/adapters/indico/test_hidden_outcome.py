"""The contract's hidden booking on a real Indico: Indico always answers a create with the
booking it made, so its answer is lost on the way — by a reverse proxy in front of it, as
a gateway that times out after passing the request on would — and «my bookings» comes
back empty, as from a site whose list shows only the next days. The adapter's JSON calls
go through ``context.request``, which no browser route sees, hence a proxy and not a
route. Everything else passes through unchanged."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web
from multidict import CIMultiDict

from adapters.indico import IndicoSystem
from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.session import ProfileSession
from core.browser import BrowserPool
from core.browser.retry import RetryPolicy as PageRetry
from scenarios.booking.selection import Want, choose_rooms
from tests.adapters.contract import a_hidden_booking_is_sent_once_and_told_plainly
from tests.adapters.indico.harness import FAST, IndicoHarness
from tests.adapters.indico.profile_harness import PROFILE
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_CREATE = "/rooms/api/booking/create"
_MINE = "/rooms/api/bookings/active"
# Hop-by-hop, or recomputed for the body sent on.
_NOT_PASSED = {"host", "content-length", "transfer-encoding", "connection", "content-encoding"}


class LosingProxy:
    """Passes every request on to Indico; while ``hiding``, a create's answer is a 502
    (the booking made all the same) and «my bookings» lists nothing."""

    def __init__(self, upstream: str) -> None:
        self._upstream = upstream.rstrip("/")
        self.hiding = False
        self.creates = 0  # creates that reached Indico while hiding

    async def handle(self, request: web.Request) -> web.StreamResponse:
        headers = CIMultiDict(
            (k, v) for k, v in request.headers.items() if k.lower() not in _NOT_PASSED
        )
        async with (
            aiohttp.ClientSession(auto_decompress=True) as http,
            http.request(
                request.method,
                self._upstream + request.path_qs,
                headers=headers,
                data=await request.read(),
                allow_redirects=False,
            ) as got,
        ):
            body = await got.read()
            passed = CIMultiDict(
                (k, v) for k, v in got.headers.items() if k.lower() not in _NOT_PASSED
            )
        if request.method == "POST" and request.path == _CREATE and self.hiding:
            self.creates += 1
            return web.Response(status=502, text="Bad Gateway")
        if self.hiding and request.path == _MINE and got.status == 200:
            listed = json.loads(body)
            listed["bookings"] = {}
            body = json.dumps(listed).encode()
        return web.Response(status=got.status, body=body, headers=passed)


class IndicoBehindProxy(IndicoHarness):
    def __init__(self, server: IndicoServer, proxy: LosingProxy, url: str, way: str) -> None:
        super().__init__(server)
        if way == "api":
            self.system = IndicoSystem(url, retry=FAST)
        else:  # the profile on Indico's pages: its form's own call, or the form itself
            retry = PageRetry(attempts=4, base_delay=0.1, max_delay=0.5)
            self.system = ProfileSystem(url, load_site_profile(PROFILE), retry=retry)
            self.day = server.today() + timedelta(days=6 if way == "pages" else 7)
        self._proxy = proxy

    @asynccontextmanager
    async def hidden_outcome(self) -> AsyncIterator[None]:
        self._proxy.hiding = True
        try:
            yield
        finally:
            self._proxy.hiding = False


@pytest_asyncio.fixture(loop_scope="session")
async def proxied(indico_server: IndicoServer) -> AsyncIterator[tuple[LosingProxy, str]]:
    proxy = LosingProxy(indico_server.base_url)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield proxy, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.mark.parametrize("way", ["api", "fast", "pages"])
async def test_a_booking_indico_made_whose_answer_was_lost_is_sent_once_and_told(
    indico_server: IndicoServer, pool: BrowserPool, proxied: tuple[LosingProxy, str], way: str
) -> None:
    proxy, url = proxied
    site = IndicoBehindProxy(indico_server, proxy, url, way)
    creates = proxy.creates
    async with pool.context() as context:
        session = site.system.open_session(context, username=site.username, password=site.password)
        if isinstance(session, ProfileSession):
            session.fast_path = way == "fast"
        try:
            free = await session.availability(site.building, site.day)
            rooms = choose_rooms(free, Want(count=1), site.start, site.end)
            assert rooms, f"a room free in {site.building} on {site.day}"
            await a_hidden_booking_is_sent_once_and_told_plainly(site, session, rooms[0])
        finally:
            await session.close()
    # Sent once while its answer was lost, never again then (a later booking of the same
    # finds it: in «my bookings» first, or after the site refused it as taken).
    assert proxy.creates == creates + 1
