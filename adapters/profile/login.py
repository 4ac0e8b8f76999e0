"""Logging in by the profile: open the form, type the account (from the settings, never
from the profile), submit, and tell success from the site's refusals.

The login page is where its path says so (``login.page``) or where the login form shows
(``login.shown``: a form drawn in place at any address, as MRBS's). After the form is
sent, the login page again with the site's words (``login.failure``) is a refusal:
«wrong password» is ``LoginFailed`` in the site's words; with no words, the session the
site just opened is gone (``SessionExpired``)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.async_api import APIRequestContext, Page
from playwright.async_api import Error as PlaywrightError
from selectolax.lexbor import LexborHTMLParser, SelectolaxError

from adapters.profile.navigate import Navigator
from adapters.profile.outcome import read_answer
from adapters.profile.parts import Find
from core.browser.retry import Transient
from core.site.errors import LockedOut, LoginFailed, SessionExpired

__all__ = ["asks_login_in", "log_in", "still_logged_in"]


async def log_in(
    nav: Navigator, page: Page, username: str, password: str, *, sending: Callable[[], None]
) -> bool:
    """Log in; False when the site says we are logged in already. ``sending`` is told
    just before the form is sent. Raises ``LoginFailed``, ``LockedOut``,
    ``SessionExpired`` or ``Transient``."""
    login = nav.profile.login
    await nav.open(page, login.open, {}, path="login.open", login_ok=True)
    _check_host(nav, page)
    if not await nav.asks_login(page):
        return False
    finder = nav.finder
    name = await finder.first(page, login.username, path="login.username", what="поля логина")
    await name.fill(username)
    secret = await finder.first(page, login.password, path="login.password", what="поля пароля")
    try:
        await secret.fill(password)
    except PlaywrightError:  # dropped on purpose: the original error may echo the password
        raise Transient("could not type the password") from None
    submit = await finder.control(page, login.submit, path="login.submit", what="кнопки входа")
    sending()
    async with page.expect_navigation() as navigation:
        await submit.click()
    status = nav.land(page, await navigation.value, login_ok=True)
    _check_host(nav, page)
    if not await nav.asks_login(page):
        return True
    answer = await read_answer(page, finder, login.failure, status, path="login.failure.message")
    message = answer.message if answer is not None else ""
    meaning = answer.meaning if answer is not None else None
    if meaning == "locked":
        raise LockedOut(message or "Вход временно заблокирован", hint="попробуйте позже")
    if meaning == "wrong_password":
        raise LoginFailed(
            message or "Неверное имя пользователя или пароль",
            hint="проверьте логин и пароль сайта",
        )
    if meaning == "retry":
        raise Transient(f"login refused for now: {message}")
    raise SessionExpired(
        "Сайт вернул на страницу входа сразу после входа" + (f": {message}" if message else ""),
        hint="сеанс на сайте истекает слишком быстро; попробуйте ещё раз",
    )


async def still_logged_in(nav: Navigator, api: APIRequestContext) -> bool:
    """Whether the context's cookies still open «my bookings»: its address, asked with a
    plain request (no page drawn), answers as itself, not with the login page (nor with
    the login form in place: ``login.shown``, told in the HTML by its CSS locators). False
    says only that this did not show it (a site that sends to the login page by its
    scripts answers as itself all the same: its first page then asks for a login)."""
    opened = nav.profile.my_bookings.open.url
    if opened is None:
        return False
    address = nav.url(opened, {})
    try:
        answer = await api.get(address)
    except PlaywrightError:
        return False
    landed = urlsplit(answer.url)
    asked = urlsplit(address)
    if not answer.ok or (landed.netloc, landed.path) != (asked.netloc, asked.path):
        return False
    if nav.profile.login.shown is None:
        return True
    try:
        html = await answer.text()
    except PlaywrightError:
        return False
    return not asks_login_in(nav, html)


def asks_login_in(nav: Navigator, html: str | LexborHTMLParser) -> bool:
    """Whether a page fetched as HTML may be the login form drawn in place (``login.shown``;
    MRBS answers any address so, HTTP 200, once its session ended): a fast path's read
    of it is none (the page's turn, which bounces and logs in again), never an empty day
    or list. May: a hidden form (a dialog) matches too, and a role or a label only the
    drawn page tells."""
    shown = nav.profile.login.shown
    return shown is not None and _form_in(html, shown)


def _form_in(html: str | LexborHTMLParser, shown: Find) -> bool:
    """Whether the login form may be in ``html``: one of ``shown``'s CSS locators matches
    in it, or one is not CSS (a role, a label, a text: the page must be drawn to tell)."""
    tree = LexborHTMLParser(html) if isinstance(html, str) else html
    for way in shown:
        if way.css is None:
            return True
        try:
            if tree.css_first(way.css) is not None:
                return True
        except SelectolaxError:  # Playwright's own CSS («:has-text»): only it can tell
            return True
    return False


def _check_host(nav: Navigator, page: Page) -> None:
    host = nav.off_site(page)
    if host is None:
        return
    if host in nav.profile.login.sso_hosts:
        raise LoginFailed(
            f"Сайт отправил на вход через {host} (единый вход)",
            hint="единый вход профиль не проходит: нужен логин и пароль самого сайта",
        )
    raise SessionExpired(f"Вход увёл на другой сайт: {host}", hint="проверьте адрес сайта")
