"""The browser pool with real Chromium: isolation, the bound on contexts, relaunch."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from core.browser import BrowserPool
from core.errors import BrowserError
from storage.process import free_port


@pytest.fixture
async def site() -> AsyncIterator[str]:
    """A tiny page that sets a cookie, to tell contexts apart."""

    async def page(request: web.Request) -> web.Response:
        response = web.Response(
            text=f"<h1>cookie={request.cookies.get('who', '-')}</h1>", content_type="text/html"
        )
        if "who" in request.query:
            response.set_cookie("who", request.query["who"])
        return response

    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}/"
    await runner.cleanup()


async def test_contexts_are_isolated_and_share_one_browser(site: str) -> None:
    async with BrowserPool(max_contexts=2) as pool:
        async with pool.context() as first, pool.context() as second:
            a = await first.new_page()
            await a.goto(site + "?who=anna")
            b = await second.new_page()
            await b.goto(site)
            assert await b.locator("h1").inner_text() == "cookie=-"
            await a.goto(site)
            assert await a.locator("h1").inner_text() == "cookie=anna"
        assert pool.launches == 1 and pool.open_contexts == 0


async def test_runs_beyond_the_bound_wait_their_turn(site: str) -> None:
    queued: list[int] = []
    inside = 0
    most_inside = 0

    async def run(n: int, pool: BrowserPool) -> None:
        nonlocal inside, most_inside

        async def on_queued() -> None:
            queued.append(n)

        async with pool.context(on_queued=on_queued) as context:
            inside += 1
            most_inside = max(most_inside, inside)
            page = await context.new_page()
            await page.goto(site)
            await asyncio.sleep(0.2)
            inside -= 1

    async with BrowserPool(max_contexts=2) as pool:
        await asyncio.gather(*(run(n, pool) for n in range(5)))
    assert most_inside == 2
    assert len(queued) >= 3


async def test_storage_state_restores_a_session(site: str) -> None:
    async with BrowserPool() as pool:
        async with pool.context() as context:
            page = await context.new_page()
            await page.goto(site + "?who=boris")
            state = await context.storage_state()
        async with pool.context(storage_state=dict(state)) as context:
            page = await context.new_page()
            await page.goto(site)
            assert await page.locator("h1").inner_text() == "cookie=boris"


def _chromium_pids() -> list[int]:
    mine = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            parent = _parent_of(int(entry.name))
        except OSError:
            continue
        if (
            cmdline
            and b"chrom" in Path(cmdline[0].decode(errors="ignore")).name.encode()
            and ("--type" not in b" ".join(cmdline).decode(errors="ignore"))
        ):
            found.append((int(entry.name), parent))
    # The browser process is a descendant of ours (through the Playwright driver).
    parents = {pid: ppid for pid, ppid in found}
    return [pid for pid in parents if _descends_from(pid, mine)]


def _parent_of(pid: int) -> int:
    # The name, in brackets, may hold spaces ("[pytest-xdist running] …"): fields after it.
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            pid = _parent_of(pid)
        except OSError:
            return False
    return False


async def test_a_crashed_browser_is_relaunched(site: str) -> None:
    async with BrowserPool() as pool:
        async with pool.context() as context:
            await (await context.new_page()).goto(site)
        pids = _chromium_pids()
        assert pids
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        browser = await pool.browser()
        for _ in range(50):
            if not browser.is_connected():
                break
            await asyncio.sleep(0.1)
        async with pool.context() as context:
            page = await context.new_page()
            await page.goto(site)
            assert await page.locator("h1").inner_text() == "cookie=-"
        assert pool.launches == 2


async def test_missing_executable_is_a_browser_error() -> None:
    async with BrowserPool(executable="/nonexistent/chromium") as pool:
        with pytest.raises(BrowserError, match="does not exist"):
            async with pool.context():
                raise AssertionError("entering should have failed")
