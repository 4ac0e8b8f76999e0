"""``clubman learn`` tells the request a person's press sent from the page's background
checks (MRBS's booking form POSTs to the address of its save as it opens and on each
change): each change sent is recorded with whether it was the page's own navigation. A
small real site in a real Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import SentRequest
from core.browser import BrowserPool
from tests.adapters.profile.served import served

_FORM = """<!doctype html><html><body><form id=entry method=post action="/save">
<label>Цель <input name=purpose id=purpose></label>
<input type=submit value="Сохранить"></form><p id=checked></p>
<script>
  // The site's own check of the slot, sent where the form is sent, in the background.
  const check = async () => {
    await fetch("/save", {method: "POST", body: new URLSearchParams({ajax: "1"})});
    document.getElementById("checked").textContent += "✓";
  };
  check();
  document.getElementById("purpose").addEventListener("change", check);
</script></body></html>"""


def _site() -> web.Application:
    async def form(_: web.Request) -> web.Response:
        return web.Response(text=_FORM, content_type="text/html")

    async def save(request: web.Request) -> web.Response:
        if (await request.post()).get("ajax"):
            return web.json_response({"free": True})
        return web.Response(text="<h1>Сохранено</h1>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/book", form)
    app.router.add_post("/save", save)
    return app


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async with served(_site()) as url:
        yield url


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_the_press_that_sends_a_form_is_told_from_its_background_checks(
    site: str, pool: BrowserPool
) -> None:
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        recorder.begin()
        await page.goto(f"{site}/book")
        await page.get_by_text("✓").wait_for()  # checked as it opened
        await page.get_by_label("Цель").fill("Шахматы")
        await page.get_by_label("Цель").press("Tab")  # left: the page checks again
        await page.get_by_text("✓✓").wait_for()
        async with page.expect_navigation():
            await page.get_by_role("button", name="Сохранить").click()
        step = await recorder.end("book", page, {})
    sent = [(r.url, r.form, r.navigation) for r in step.requests]
    assert sent == [
        (f"{site}/save", {"ajax": "1"}, False),
        (f"{site}/save", {"ajax": "1"}, False),
        (f"{site}/save", {"purpose": "Шахматы"}, True),
    ]


def test_a_change_recorded_before_navigations_were_told_loads_as_a_background_one() -> None:
    old = SentRequest.model_validate_json('{"method": "POST", "url": "http://x/save"}')
    assert old.navigation is False
