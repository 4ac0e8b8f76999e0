"""A login told by its form shown in place (``login.shown``), as MRBS draws it on every
address and answers a good and a wrong password on the same path: on a small real site
in a real Chromium. A wrong password is ``LoginFailed`` in the site's words, a form back
with no words ``SessionExpired``, the form on any page a bounce (log in again), saved
cookies the site ended are not taken as logged in."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web
from playwright.async_api import Page

from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.login import log_in, still_logged_in
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Locator
from core.browser import BrowserPool
from core.browser.retry import Bounced
from core.site.errors import LoginFailed, SessionExpired
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PASSWORD = "верный-пароль"
# Logged in, the page; else the login form in place, on the same address (MRBS's).
_FORM = """<form id=logon method=post action="{action}"><input type=hidden name=target
value="{target}">{message}<fieldset><legend>Пожалуйста, войдите</legend>
<label>Пользователь <input id=username name=username></label>
<label>Пароль <input id=password name=password type=password></label>
<input type=submit value="Войти в систему"></fieldset></form>"""
# A page that carries a hidden login form (a dialog opened by a link) is not the login page.
_HIDDEN = '<div style="display:none">' + _FORM.format(action="/", target="/", message="") + "</div>"
_LOGIN = """login:
  open:
    url: /day?area=1
  username:
    - label: Пользователь
  password:
    - label: Пароль
  submit:
    - role: button
      name: Войти в систему
  shown:
    - css: form#logon
  failure:
    message:
      - css: form#logon > p
    refusals:
      - {text: неизвестный пользователь, error: wrong_password}

"""


class _Site:
    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.lose_next = False  # the next good login's session is ended at once

    def end_sessions(self) -> None:
        self.sessions.clear()

    def _in(self, request: web.Request) -> bool:
        return request.cookies.get("sid") in self.sessions

    def _page(self, body: str) -> web.Response:
        return web.Response(text=f"<html><body>{body}</body></html>", content_type="text/html")

    def _form(self, request: web.Request, message: str = "") -> web.Response:
        target = request.path_qs if request.method == "GET" else ""
        form = _FORM.format(action=request.path, target=target, message=message)
        return self._page(form)

    async def show(self, request: web.Request) -> web.Response:
        if not self._in(request):
            return self._form(request)
        hidden = _HIDDEN if request.path == "/day" else ""
        return self._page(f"<h1>Страница {request.path}</h1>{hidden}")

    async def send(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        if form.get("password") != _PASSWORD:
            return self._form(request, "<p>неизвестный пользователь</p>")
        sid = secrets.token_hex(8)
        if not self.lose_next:
            self.sessions.add(sid)
        self.lose_next = False
        answer = web.HTTPFound(str(form.get("target") or request.path))
        answer.set_cookie("sid", sid)
        raise answer

    def app(self) -> web.Application:
        app = web.Application()
        for path in ("/day", "/my", "/booking/{number}"):
            app.router.add_get(path, self.show)
            app.router.add_post(path, self.send)
        return app


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[tuple[_Site, str]]:
    running = _Site()
    async with served(running.app()) as url:
        yield running, url


def _navigator(url: str, login: str = _LOGIN) -> Navigator:
    text = login + TEXT[TEXT.index("catalogue:\n") :]
    loaded = parse_site_profile(TEXT[: TEXT.index("login:\n")] + text, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=5_000)


async def _log_in(nav: Navigator, page: Page, password: str = _PASSWORD) -> bool:
    return await log_in(nav, page, "club", password, sending=lambda: None)


async def test_the_login_page_is_its_path_unless_the_form_tells_it() -> None:
    shown = _navigator("http://127.0.0.1:1").profile.login
    assert shown.page is None and shown.page_path() is None
    both = _navigator("http://127.0.0.1:1", _LOGIN.replace("  shown:", "  page: ^/auth\n  shown:"))
    assert both.profile.login.page_path() == "^/auth" and both.is_login_path("/auth/in")
    path_only = _navigator(
        "http://127.0.0.1:1", _LOGIN.replace("  shown:\n    - css: form#logon\n", "")
    )
    assert path_only.profile.login.page_path() == "^/login"
    assert path_only.is_login_path("/login") and not path_only.is_login_path("/day")


async def test_a_wrong_password_on_the_same_path_is_login_failed_in_the_sites_words(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    _, url = site
    nav = _navigator(url)
    async with pool.context() as context:
        page = await context.new_page()
        with pytest.raises(LoginFailed) as caught:
            await _log_in(nav, page, "не тот")
    assert caught.value.args[0] == "неизвестный пользователь"


async def test_a_good_password_on_the_same_path_logs_in_and_a_second_login_types_nothing(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    _, url = site
    nav = _navigator(url)
    async with pool.context() as context:
        page = await context.new_page()
        assert await _log_in(nav, page) is True
        assert page.url == f"{url}/day?area=1"  # the page asked for, its hidden form no login
        assert await _log_in(nav, page) is False  # logged in already: the form is not shown


async def test_the_form_back_with_no_words_after_logging_in_is_session_expired(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    running, url = site
    nav = _navigator(url)
    running.lose_next = True
    async with pool.context() as context:
        page = await context.new_page()
        with pytest.raises(SessionExpired):
            await _log_in(nav, page)


async def test_the_form_shown_in_place_on_any_page_is_a_bounce(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    running, url = site
    nav = _navigator(url)
    async with pool.context() as context:
        page = await context.new_page()
        assert await _log_in(nav, page) is True
        assert await nav.goto(page, f"{url}/booking/7") == 200
        running.end_sessions()
        with pytest.raises(Bounced):
            await nav.goto(page, f"{url}/booking/7")
        with pytest.raises(Bounced):  # a page waited for: the form shows instead
            await nav.wait_for(page, (Locator(css="h1"),), path="booking_page.wait")
        assert await nav.goto(page, f"{url}/booking/7", login_ok=True) == 200


async def test_saved_cookies_the_site_ended_are_not_logged_in(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    running, url = site
    nav = _navigator(url)
    async with pool.context() as context:
        page = await context.new_page()
        assert await _log_in(nav, page) is True
        assert await still_logged_in(nav, context.request) is True  # /my answers as itself
        running.end_sessions()
        assert await still_logged_in(nav, context.request) is False  # /my shows the form


async def test_a_form_told_by_a_role_or_label_is_looked_for_in_the_drawn_page(
    pool: BrowserPool, site: tuple[_Site, str]
) -> None:
    _, url = site
    nav = _navigator(url, _LOGIN.replace("    - css: form#logon\n", "    - label: Пароль\n"))
    async with pool.context() as context:
        page = await context.new_page()
        assert await _log_in(nav, page) is True
        # The plain request cannot tell a label: the page is drawn and checked instead.
        assert await still_logged_in(nav, context.request) is False
        assert await nav.goto(page, f"{url}/my") == 200
