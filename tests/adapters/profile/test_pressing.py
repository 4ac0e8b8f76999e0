"""A step's own press under the network guard (issue 65): the booking form's button,
named as the profile names it, is pressed with changes let through only to the
addresses ``may_change`` declares for ``book``. A form that now posts elsewhere is
stopped and said plainly (nothing sent, so nothing is sent again); a stand-in whose page
also sent a change elsewhere heals nothing, though the step's own check passed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import web
from playwright.async_api import Page

from adapters.profile.errors import SentElsewhere
from adapters.profile.finding import Finder, StepGuard
from adapters.profile.form import send_form
from adapters.profile.healing import Healing
from adapters.profile.history import ProfileHistory
from adapters.profile.loader import load_site_profile
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool, NetworkGuard
from tests.adapters.profile.profile_text import TEXT, edited
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")
Handler = Callable[[web.Request], Awaitable[web.Response]]

_FORM = """<!doctype html><html lang="ru"><body><form method="post" action="{action}">
<input name="purpose" value="клуб"><button type="submit">{name}</button></form>
<script>{script}</script></body></html>"""
# On submit, the page also posts to an address the profile does not declare.
_ALSO = """document.forms[0].addEventListener("submit",
  () => fetch("/elsewhere", {method: "POST", keepalive: false}).catch(() => null));"""
_TWO = """  submit:
    - role: button
      name: Забронировать
    - role: button
      name: Отправить заявку
"""


@dataclass
class _Site:
    url: str = ""
    received: list[str] = field(default_factory=list)  # the changes that reached it


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def site() -> AsyncIterator[_Site]:
    state = _Site()

    def page(action: str, name: str, script: str = "") -> Handler:
        html = _FORM.format(action=action, name=name, script=script)

        async def shown(_: web.Request) -> web.Response:
            return web.Response(text=html, content_type="text/html")

        return shown

    async def booked(_: web.Request) -> web.Response:
        return web.Response(text="Бронь 7")

    async def changed(request: web.Request) -> web.StreamResponse:
        state.received.append(f"{request.method} {request.path}")
        if request.path == "/book":
            raise web.HTTPFound("/booking/7")
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/moved", page("/elsewhere", "Забронировать"))
    app.router.add_get("/plain", page("/book", "Отправить заявку"))
    app.router.add_get("/also", page("/book", "Отправить заявку", _ALSO))
    app.router.add_get("/booking/7", booked)
    app.router.add_post("/book", changed)
    app.router.add_post("/elsewhere", changed)
    async with served(app) as url:
        state.url = url
        yield state


async def _book_at(
    pool: BrowserPool, site: _Site, address: str, path: Path, *, history: bool
) -> str | None:
    """The booking step on ``address``: its button found as ``Finder.control`` finds it,
    the form sent; the booking's number."""
    site.received.clear()
    loaded = load_site_profile(path)
    async with pool.context() as context:
        network = NetworkGuard(context)
        await network.watch()
        declared = {"book": (f"{site.url}/book",)}
        finder = Finder(loaded, guard=StepGuard(network, lambda part: declared.get(part, ())))
        nav = Navigator(loaded, site.url, finder, timeout_ms=10_000)
        page = await context.new_page()

        async def opened() -> Page:
            await page.goto(f"{site.url}{address}")
            return page

        async def send(page: Page) -> str | None:
            book = loaded.profile.book
            submit = await finder.control(
                page, book.submit, path="book.submit", what="кнопки брони"
            )
            return await send_form(nav, page, submit, {})

        healing = Healing(ProfileHistory(path) if history else None)
        return await healing.step("бронирование", finder, opened, send)


async def test_a_form_that_now_posts_elsewhere_is_stopped_and_said_plainly(
    pool: BrowserPool, site: _Site, tmp_path: Path
) -> None:
    path = tmp_path / "site.yaml"
    path.write_text(TEXT, encoding="utf-8")
    with pytest.raises(SentElsewhere) as raised:
        await _book_at(pool, site, "/moved", path, history=False)
    assert site.received == []  # the guard stopped it before the site
    assert f"POST {site.url}/elsewhere" in str(raised.value)
    assert "ничего не изменено" in str(raised.value)


@pytest.mark.parametrize("also", [False, True], ids=["only-its-form", "also-elsewhere"])
async def test_a_stand_in_whose_page_also_sent_elsewhere_heals_nothing(
    pool: BrowserPool, site: _Site, tmp_path: Path, also: bool
) -> None:
    path = tmp_path / "site.yaml"
    path.write_text(edited("  submit:\n    - role: button\n      name: Забронировать\n", _TWO),
                    encoding="utf-8")  # fmt: skip
    written = path.read_text(encoding="utf-8")

    number = await _book_at(pool, site, "/also" if also else "/plain", path, history=True)

    assert number == "7"  # the step's own check passed either way
    assert "POST /elsewhere" not in site.received  # stopped by the guard
    versions = ProfileHistory(path).versions()
    if also:
        assert path.read_text(encoding="utf-8") == written
        assert versions == []
    else:  # the same stand-in, nothing else sent: healed
        assert [way.name for way in load_site_profile(path).profile.book.submit] == [
            "Отправить заявку", "Забронировать",
        ]  # fmt: skip
        assert len(versions) == 2
