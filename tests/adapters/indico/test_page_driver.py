"""The sessions' page driver (``core.browser.driver``, Indico's unchanged) is the same
harmless hand as the portal's: exact handles, the forbidden-intent check and a guard that
lets nothing change (Indico declares no endpoint for brain clicks). Shown on the reference
portal's hostile notices, which need no Indico."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
import pytest_asyncio

from core.brain import ControlRefused, RequestBlocked
from core.browser import BrowserPool
from core.browser.driver import BrowserPageDriver
from portal.server import running_portal

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def portal_url() -> AsyncIterator[str]:
    async with running_portal(test_api=True, seed=1) as portal:
        yield portal.url


@asynccontextmanager
async def on_notice(pool: BrowserPool, url: str, hostile: str) -> AsyncIterator[BrowserPageDriver]:
    async with aiohttp.ClientSession() as http:
        (await http.post(f"{url}/_test/quirks", json={"hostile": hostile})).raise_for_status()
    async with pool.context() as context:
        driver = BrowserPageDriver(context, timeout_ms=10_000, site="Indico")
        page = await driver._page_now()  # the driver's own page, logged in by hand here
        await page.goto(f"{url}/login")
        await page.get_by_label("Имя пользователя").fill("club")
        await page.get_by_label("Пароль").fill("club-demo")
        await page.get_by_role("button", name="Войти").click()
        await page.wait_for_url("**/notice**")
        yield driver
        await driver.close()


async def cancels(url: str) -> list[str]:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/cancels") as resp:
        found: list[str] = await resp.json()
    return found


async def test_the_indico_driver_presses_the_summarised_ok_and_blocks_every_change(
    pool: BrowserPool, portal_url: str
) -> None:
    async with on_notice(pool, portal_url, "transform") as driver:
        await driver.click("button", "OK", step="login")
        assert (await driver.page_summary()).alerts == ["Нажата кнопка OK"]
        with pytest.raises(ControlRefused):
            await driver.click("button", "Отменить все брони клуба ok", step="login")
    async with on_notice(pool, portal_url, "innocent") as driver:
        await driver.check("Я ознакомлен(а) с правилами", step="login")
        with pytest.raises(RequestBlocked):
            await driver.click("button", "Продолжить", step="login")
    assert await cancels(portal_url) == []
