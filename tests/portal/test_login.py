"""Login, wrong password, lockout, logout — in Chromium, through labels and roles."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.async_api import Page, expect

from portal.server import RunningPortal
from tests.portal.helpers import HttpUser, TestClock, login

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_login_lands_on_rooms_with_the_university_header(page: Page) -> None:
    await page.goto("/rooms")
    await expect(page).to_have_url(re.compile(r"/login\?next="))
    await expect(page.get_by_role("heading", name="Вход в систему")).to_be_visible()
    await login(page)
    await expect(page).to_have_url(re.compile(r"/rooms$"))
    await expect(page.get_by_role("heading", name="Аудитории", exact=True)).to_be_visible()
    nav = page.get_by_role("navigation", name="Главное меню")
    for name in ("Аудитории", "Мои брони", "Выйти"):
        await expect(nav.get_by_role("link", name=name)).to_be_visible()
    await expect(page.get_by_role("banner")).to_contain_text(
        "Северо-Западный государственный университет"
    )


async def test_wrong_password_shows_an_error_and_keeps_the_username(page: Page) -> None:
    await login(page, "club", "wrong")
    await expect(page.get_by_role("alert")).to_have_text("Неверное имя пользователя или пароль.")
    await expect(page.get_by_label("Имя пользователя")).to_have_value("club")
    await expect(page.get_by_label("Пароль")).to_have_value("")


async def test_five_failures_lock_the_account_for_a_while(page: Page, clock: TestClock) -> None:
    for _ in range(4):
        await login(page, "chess", "nope", then="/my")
        await expect(page.get_by_role("alert")).to_contain_text("Неверное")
    await login(page, "chess", "nope", then="/my")
    await expect(page.get_by_role("alert")).to_contain_text("временно заблокирован")
    await login(page, "chess", "chess-demo")  # the right password does not help while locked
    await expect(page.get_by_role("alert")).to_contain_text("временно заблокирован")
    await login(page, "club", "club-demo", then="/my")  # other accounts are not affected
    await expect(page.get_by_role("heading", name="Мои брони")).to_be_visible()
    await page.get_by_role("link", name="Выйти").click()
    clock.advance(timedelta(minutes=6))
    await login(page, "chess", "chess-demo", then="/my")
    await expect(page.get_by_role("heading", name="Мои брони")).to_be_visible()


async def test_logout_ends_the_session(page: Page) -> None:
    await login(page, then="/my")
    await page.get_by_role("link", name="Выйти").click()
    await expect(page.get_by_role("button", name="Войти")).to_be_visible()
    await page.goto("/my")
    await expect(page).to_have_url(re.compile(r"/login\?next=%2Fmy"))


async def test_login_needs_the_csrf_token(portal: RunningPortal) -> None:
    async with HttpUser(portal.url) as user:
        await user.csrf("/login")  # a session exists, but the token is not sent
        form = {"username": "club", "password": "club-demo", "csrf_token": "forged"}
        resp = await user.post("/login", form)
        assert resp.status == 403
        assert (await user.login("club", "club-demo")).url.path == "/my"


async def test_api_requires_login(portal: RunningPortal) -> None:
    async with HttpUser(portal.url) as user:
        resp = await user.http.get(f"{portal.url}/api/availability?building=main")
        assert resp.status == 401 and await resp.json() == {"error": "unauthorized"}
