"""``clubman learn`` drafts the login by where it went, on a small real site in a real
Chromium: a form drawn in place (MRBS's: the login leads back to the page it was typed
on) and a form on the site's first page are told by the form (``shown``), and the drafted
profile logs in, reports a wrong password in the site's words and a form back with no
words as a session ended; a login page of its own stays its path (``page``)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
import yaml
from aiohttp import web
from playwright.async_api import Page

from adapters.profile.finding import Finder
from adapters.profile.learn.login import draft_login
from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Recording
from adapters.profile.loader import parse_site_profile
from adapters.profile.login import log_in
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool
from core.site.errors import LoginFailed, SessionExpired
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

_PASSWORD = "верный-пароль"
_FIELDS = """<fieldset><legend>Пожалуйста, войдите</legend>
<div><label for=username>Пользователь</label> <input id=username name=username></div>
<div><label for=password>Пароль</label> <input id=password name=password type=password></div>
</fieldset><fieldset><div><input type=submit value="Войти в систему"></div></fieldset>
<fieldset><div><a href="/reset">Забыли пароль?</a></div></fieldset>
<div class=hint style="display:none">Введите пароль</div>"""


class _Site:
    """MRBS's way on /day and /my: the form in place of the page, sent to its own path,
    a good password back to the page asked for, a wrong one the form again with the site's
    words. The site's first page «/» is a form of its own kind (no id) that leads to
    /home; /login is a login page of its own that leads to /day."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.lose_next = False  # the next good login's session is ended at once

    def _in(self, request: web.Request) -> bool:
        return request.cookies.get("sid") in self.sessions

    @staticmethod
    def _page(body: str) -> web.Response:
        page = f"<html><body><header>Клуб</header>{body}</body></html>"
        return web.Response(text=page, content_type="text/html")

    def _logged_in(self, to: str) -> web.HTTPFound:
        sid = secrets.token_hex(8)
        if not self.lose_next:
            self.sessions.add(sid)
        self.lose_next = False
        answer = web.HTTPFound(to)
        answer.set_cookie("sid", sid)
        return answer

    def _in_place(self, request: web.Request, said: str = "") -> web.Response:
        target = request.path_qs if request.method == "GET" else request.path
        return self._page(
            f'<form id=logon method=post action="{request.path}">'
            f'<input type=hidden name=target value="{target}">{said}{_FIELDS}</form>'
        )

    async def show(self, request: web.Request) -> web.Response:
        if not self._in(request):
            return self._in_place(request)
        return self._page(f"<h1>Страница {request.path}</h1>")

    async def send(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("password") != _PASSWORD:
            return self._in_place(request, "<p>неизвестный пользователь</p>")
        raise self._logged_in(str(form.get("target") or request.path))

    async def first(self, request: web.Request) -> web.Response:
        if self._in(request):
            raise web.HTTPFound("/home")
        return self._page(
            f'<main><form class=signin method=post action="/">{_FIELDS}</form></main>'
        )

    async def first_sent(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("password") != _PASSWORD:
            return await self.first(request)
        raise self._logged_in("/home")

    async def login_page(self, _: web.Request) -> web.Response:
        return self._page(f'<form method=post action="/login">{_FIELDS}</form>')

    async def login_sent(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("password") != _PASSWORD:
            return await self.login_page(request)
        raise self._logged_in("/day")

    def app(self) -> web.Application:
        app = web.Application()
        for path in ("/day", "/my", "/home"):
            app.router.add_get(path, self.show)
            app.router.add_post(path, self.send)
        app.router.add_get("/", self.first)
        app.router.add_post("/", self.first_sent)
        app.router.add_get("/login", self.login_page)
        app.router.add_post("/login", self.login_sent)
        return app


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[tuple[_Site, str]]:
    running = _Site()
    async with served(running.app()) as url:
        yield running, url


async def _demonstrated(pool: BrowserPool, url: str, path: str, site: str = "") -> Recording:
    """The operator opens ``path`` and logs in there, as ``clubman learn`` records it."""
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        await page.goto(url + path)
        recorder.begin()
        await page.get_by_label("Пользователь").fill("club")
        await page.get_by_label("Пароль").fill(_PASSWORD)
        async with page.expect_navigation():
            await page.get_by_role("button", name="Войти в систему").click()
        await page.locator("h1").wait_for()
        step = await recorder.end("login", page, {})
    return Recording(name="t", site=site or url, steps=(step,))


def _navigator(url: str, login: dict[str, Any]) -> Navigator:
    """The reference profile with its login part the draft."""
    drafted = yaml.safe_dump({"login": login}, allow_unicode=True, sort_keys=False)
    text = TEXT[: TEXT.index("login:\n")] + drafted + TEXT[TEXT.index("catalogue:\n") :]
    loaded = parse_site_profile(text, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=5_000)


async def _log_in(nav: Navigator, page: Page, password: str = _PASSWORD) -> bool:
    return await log_in(nav, page, "club", password, sending=lambda: None)


async def test_a_form_drawn_in_place_is_drafted_as_shown_and_its_words_are_the_refusal(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    running, url = site
    login = draft_login(await _demonstrated(pool, url, "/day?area=1"))
    assert login["shown"] == [{"css": "form#logon"}] and "page" not in login
    assert login["open"] == {"url": "/day?area=1"}
    nav = _navigator(url, login)
    async with pool.context() as context:
        page = await context.new_page()
        with pytest.raises(LoginFailed) as caught:
            await _log_in(nav, page, "не тот")
        assert caught.value.args[0] == "неизвестный пользователь"  # the site's words only
        running.lose_next = True
        with pytest.raises(SessionExpired):  # the form back with no words
            await _log_in(nav, page)
        assert await _log_in(nav, page) is True
        assert page.url == f"{url}/day?area=1"
        assert await _log_in(nav, page) is False  # logged in: the form is not shown


async def test_a_form_on_the_sites_first_page_is_drafted_as_shown_by_its_place(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    """Its login leads elsewhere (/home), but the site's own address asked for it."""
    _, url = site
    login = draft_login(await _demonstrated(pool, url, "/"))
    assert login["shown"] == [{"css": "main > form.signin:has(input[type=password])"}]
    assert "page" not in login
    nav = _navigator(url, login)
    async with pool.context() as context:
        page = await context.new_page()
        assert await _log_in(nav, page) is True
        assert page.url == f"{url}/home"


async def test_a_login_page_of_its_own_is_drafted_as_its_path(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    _, url = site
    login = draft_login(await _demonstrated(pool, url, "/login"))
    assert login["page"] == "^/login" and "shown" not in login
    assert [m for m in login["failure"]["message"] if "form" in m.get("css", "")] == []
