"""The brain never remembers a click whose read changed the site (issue 65): a link the
LLM chose, whose GET the site answered by sending the browser elsewhere (it acted: «do
it, then show me»), gets the step past the page once and is not kept, so it is never
replayed unseen. Real Chromium, a real guard, a tiny real site that counts what changed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from aiohttp import web
from playwright.async_api import Page

from core.brain import Brain, ClickTarget, InMemoryBrainMemory, PageSnapshot, page_signature
from core.browser import BrowserPool, NetworkGuard
from core.browser.controls import press
from core.browser.summary import summarize
from core.llm import FallbackLLM
from tests.core.brain.conftest import Emitted, make_ctx
from tests.fakes.llm import Answer, FakeAnthropic

GO = ClickTarget(role="link", name="Продолжить")
_NOTICE = """<!doctype html><html lang="ru"><title>Правила изменились</title>
<h1>Правила изменились</h1><p>С 1 декабря действуют новые правила.</p>
<a href="{href}">Продолжить</a>"""
_HOME = "<!doctype html><title>Мои брони</title><h1>Мои брони</h1>"


@dataclass
class Site:
    url: str = ""
    changed: list[str] = field(default_factory=list)  # what the site did when asked


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    state = Site()

    def shown(html: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def show(_: web.Request) -> web.Response:
            return web.Response(text=html, content_type="text/html")

        return show

    async def acknowledged(request: web.Request) -> web.Response:
        state.changed.append(f"{request.method} {request.path}")  # a GET that acts
        raise web.HTTPFound("/home")

    app = web.Application()
    app.router.add_get("/acting", shown(_NOTICE.format(href="/ack")))
    app.router.add_get("/reading", shown(_NOTICE.format(href="/home")))
    app.router.add_get("/ack", acknowledged)
    app.router.add_get("/home", shown(_HOME))
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    state.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    yield state
    await runner.cleanup()


@dataclass
class Driver:
    """The brain's ``PageDriver`` as the adapters make it: the summarised control pressed
    under the guard, the guard lifted on ``release``; the probe: «Мои брони» is back."""

    page: Page
    guard: NetworkGuard

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        assert await press(self.page, self.guard, role, name)
        await self.page.wait_for_load_state()

    async def check(self, label: str, *, step: str = "") -> None:
        assert await press(self.page, self.guard, "checkbox", label)

    async def release(self) -> tuple[str, ...]:
        return await self.guard.lift(self.page)

    async def probe(self) -> PageSnapshot | None:
        return None if urlsplit(self.page.url).path == "/home" else await snapshot(self.page)


async def snapshot(page: Page) -> PageSnapshot:
    return PageSnapshot.model_validate((await summarize(page)).model_dump())


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=1) as opened:
        yield opened


async def resolve(brain: Brain, pool: BrowserPool, url: str) -> PageSnapshot:
    """The notice at ``url`` resolved by ``brain`` on a fresh page; the notice as it was."""
    async with pool.context() as context:
        guard = NetworkGuard(context)
        await guard.watch()
        page = await context.new_page()
        await page.goto(url)
        driver, notice = Driver(page, guard), await snapshot(page)
        await brain.resolve_page(
            make_ctx(Emitted()), step="login", expected="«Мои брони»", page=notice,
            driver=driver, probe=driver.probe,
        )  # fmt: skip
    return notice


async def test_a_link_whose_get_the_site_redirected_gets_past_but_is_not_remembered(
    llm: FallbackLLM, vendor: FakeAnthropic, pool: BrowserPool, site: Site
) -> None:
    """Regression (issue 65): the brain's link whose GET changed the site was remembered,
    to be pressed again with no call and nobody looking."""
    memory = InMemoryBrainMemory()
    vendor.push(Answer({"action": "click", "targets": [GO.model_dump()]}))

    await resolve(Brain(llm, memory), pool, f"{site.url}/acting")

    assert site.changed == ["GET /ack"]  # the step got past the page, once
    assert memory.entries == {}


async def test_a_link_that_only_read_is_remembered_and_replayed_without_the_llm(
    llm: FallbackLLM, vendor: FakeAnthropic, pool: BrowserPool, site: Site
) -> None:
    memory = InMemoryBrainMemory()
    vendor.push(Answer({"action": "click", "targets": [GO.model_dump()]}))
    brain = Brain(llm, memory)

    notice = await resolve(brain, pool, f"{site.url}/reading")
    assert memory.entries == {page_signature(notice): [GO]}
    await resolve(brain, pool, f"{site.url}/reading")

    assert len(vendor.requests) == 1  # the second time from memory
    assert site.changed == []


async def test_a_remembered_click_whose_replay_the_site_redirected_is_forgotten(
    pool: BrowserPool, site: Site
) -> None:
    """A click kept before the rule (or before the site began to act on it): replayed
    once, then dropped."""
    memory = InMemoryBrainMemory()
    async with pool.context() as context:
        page = await context.new_page()
        await page.goto(f"{site.url}/acting")
        signature = page_signature(await snapshot(page))
    await memory.remember(signature, [GO], note="from an earlier run")

    await resolve(Brain(None, memory), pool, f"{site.url}/acting")

    assert site.changed == ["GET /ack"]
    assert memory.entries == {}
