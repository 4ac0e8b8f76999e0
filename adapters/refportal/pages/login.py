"""The login page: fill «Имя пользователя» and «Пароль», press «Войти», read the outcome."""

from __future__ import annotations

from urllib.parse import quote

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from adapters.refportal.pages.base import LOGIN_PATH, alert_text, land, path_of
from core.browser.retry import Transient
from core.site.errors import LockedOut, LoginFailed, SessionExpired

__all__ = ["LoginPage"]

_LOCKED_WORDS = ("заблокирован", "слишком много")


class LoginPage:
    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url

    async def open(self, next_path: str = "/my") -> bool:
        """Open the login form; False when the portal says we are logged in already."""
        response = await self.page.goto(
            f"{self.base_url}{LOGIN_PATH}?next={quote(next_path, safe='')}"
        )
        await land(self.page, response, login_ok=True)
        return path_of(self.page) == LOGIN_PATH

    async def submit(self, username: str, password: str) -> None:
        """Log in; raises ``LoginFailed``, ``LockedOut``, ``SessionExpired`` or ``Transient``."""
        page = self.page
        await page.get_by_label("Имя пользователя").fill(username)
        try:
            await page.get_by_label("Пароль", exact=True).fill(password)
        except PlaywrightError:  # dropped on purpose: the original error may echo the password
            raise Transient("could not type into «Пароль»") from None
        async with page.expect_navigation() as navigation:
            await page.get_by_role("button", name="Войти").click()
        status = await land(page, await navigation.value, login_ok=True)
        if path_of(page) != LOGIN_PATH:
            return
        message = await alert_text(page)
        lowered = message.lower()
        if status == 429 or any(word in lowered for word in _LOCKED_WORDS):
            raise LockedOut(message or "Вход временно заблокирован", hint="попробуйте позже")
        if status == 401 or "неверн" in lowered:
            raise LoginFailed(
                message or "Неверное имя пользователя или пароль",
                hint="проверьте логин и пароль портала",
            )
        if status == 403:  # the form's CSRF token went stale: load it again
            raise Transient(f"login form expired: {message}")
        raise SessionExpired(
            "Портал вернул на страницу входа сразу после входа",
            hint="сеанс на портале истекает слишком быстро; попробуйте ещё раз",
        )
