"""Chaos and test controls: every quirk, seen through the browser or plain HTTP."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import aiohttp
import pytest
from playwright.async_api import Page, expect

from portal.server import RunningPortal
from tests.portal.helpers import START, TestClock, all_bookings, free_room, grid, login, set_quirks

pytestmark = pytest.mark.asyncio(loop_scope="session")

FRIDAY = START.date() + timedelta(days=4)


async def test_latency_slows_every_page_but_not_the_test_api(portal: RunningPortal) -> None:
    await set_quirks(portal.url, latency_ms=400)
    async with aiohttp.ClientSession() as http:
        began = time.monotonic()
        assert (await http.get(f"{portal.url}/login")).status == 200
        assert time.monotonic() - began >= 0.4
        began = time.monotonic()
        assert (await http.get(f"{portal.url}/_test/bookings")).status == 200
        assert time.monotonic() - began < 0.4


async def test_latency_delays_the_grid_and_clients_must_wait(
    page: Page, portal: RunningPortal
) -> None:
    await login(page)
    await set_quirks(portal.url, latency_ms=700)
    await page.goto(f"/rooms?building=lab&date={FRIDAY}")
    await expect(page.get_by_text("Загрузка расписания…")).to_be_visible()
    await expect(grid(page)).to_be_visible()
    await expect(grid(page).get_by_role("row")).to_have_count(7)


async def test_error_rate_gives_deterministic_500_and_502_pages(portal: RunningPortal) -> None:
    async def statuses() -> list[int]:
        async with aiohttp.ClientSession() as http:
            return [(await http.get(f"{portal.url}/login")).status for _ in range(30)]

    await set_quirks(portal.url, error_rate=0.5, error_seed=7)
    first = await statuses()
    assert {200, 500, 502} == set(first)
    await set_quirks(portal.url, error_rate=0.5, error_seed=7)
    assert await statuses() == first
    await set_quirks(portal.url, error_rate=1.0)
    async with aiohttp.ClientSession() as http:
        pages = [await (await http.get(f"{portal.url}/rooms")).text() for _ in range(6)]
    assert any("502 Bad Gateway" in p for p in pages)
    assert any("500 — Внутренняя ошибка сервера" in p for p in pages)
    await set_quirks(portal.url)
    assert set(await statuses()) == {200}


async def test_error_gap_serves_that_many_requests_after_each_failure(
    portal: RunningPortal,
) -> None:
    async with aiohttp.ClientSession() as http:
        await set_quirks(portal.url, error_rate=1.0, error_gap=3)
        statuses = [(await http.get(f"{portal.url}/login")).status for _ in range(12)]
        assert [s == 200 for s in statuses] == [False, True, True, True] * 3
        await set_quirks(portal.url, error_rate=0.5, error_seed=7, error_gap=2)
        failed = [(await http.get(f"{portal.url}/login")).status != 200 for _ in range(60)]
    assert any(failed)
    assert not any(failed[i] and any(failed[i + 1 : i + 3]) for i in range(len(failed)))


async def test_error_page_in_the_browser(page: Page, portal: RunningPortal) -> None:
    await set_quirks(portal.url, error_rate=1.0, error_seed=1)
    response = await page.goto("/login")
    assert response is not None and response.status in (500, 502)
    await expect(page.get_by_role("heading", name=re.compile("500|502"))).to_be_visible()
    await set_quirks(portal.url)
    await login(page)
    await expect(page.get_by_role("heading", name="Аудитории", exact=True)).to_be_visible()


async def test_a_failed_grid_load_offers_a_retry(page: Page) -> None:
    """The page itself loads but its JSON fails (as under the 500/502 quirk)."""
    await login(page)
    await page.route(
        "**/api/availability*", lambda route: route.fulfill(status=502, body="Bad Gateway")
    )
    await page.goto(f"/rooms?building=lab&date={FRIDAY}")
    await expect(page.get_by_role("alert")).to_contain_text("Не удалось загрузить расписание")
    await expect(grid(page)).to_have_count(0)
    await page.unroute("**/api/availability*")
    await page.get_by_role("button", name="Повторить").click()
    await expect(grid(page)).to_be_visible()


async def test_full_building_shows_no_free_cells_and_refuses_bookings(
    page: Page, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, full_building="lab")
    await login(page, then=f"/rooms?building=lab&date={FRIDAY}")
    await expect(grid(page)).to_be_visible()
    await expect(grid(page).get_by_role("link")).to_have_count(0)
    await expect(grid(page).get_by_text("занято", exact=True)).to_have_count(6 * 28)
    await expect(page.get_by_role("status")).to_contain_text("свободных интервалов: 0")
    await page.goto(f"/rooms?building=main&date={FRIDAY}")
    await expect(grid(page).get_by_role("link").first).to_be_visible()  # other buildings work
    await page.goto(f"/book?room=lab-501&date={FRIDAY}&start=18:00&end=19:00")
    await page.get_by_label("Цель бронирования").fill("Семинар")
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page.get_by_role("alert")).to_contain_text("уже занято")


async def test_session_lifetime_forces_a_relogin_mid_flow(
    page: Page, portal: RunningPortal, clock: TestClock
) -> None:
    await set_quirks(portal.url, session_lifetime=60)
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    await login(page, then=f"/book?room={room_id}&date={FRIDAY}&start=18:00&end=19:00")
    await page.get_by_label("Цель бронирования").fill("Клуб")
    clock.advance(timedelta(seconds=61))
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page).to_have_url(re.compile(r"/login\?next="))
    await expect(page.get_by_role("status")).to_have_text("Сеанс истёк. Войдите снова.")
    assert not [b for b in await all_bookings(portal.url) if b["user"] == "club"]
    await page.get_by_label("Имя пользователя").fill("club")
    await page.get_by_label("Пароль").fill("club-demo")
    await page.get_by_role("button", name="Войти").click()
    await expect(page.get_by_role("heading", name="Бронирование аудитории")).to_be_visible()
    await page.get_by_label("Цель бронирования").fill("Клуб")
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page.get_by_role("heading", name="Бронь оформлена")).to_be_visible()


async def test_expired_session_on_the_grid_sends_the_script_to_login(
    page: Page, portal: RunningPortal, clock: TestClock
) -> None:
    await set_quirks(portal.url, session_lifetime=60)
    await login(page, then=f"/rooms?building=lab&date={FRIDAY}")
    await expect(grid(page)).to_be_visible()
    clock.advance(timedelta(seconds=61))
    await page.reload()
    await expect(page.get_by_role("button", name="Войти")).to_be_visible()
    await expect(page).to_have_url(re.compile(r"expired=1"))


async def test_interstitial_notice_after_login_once_per_user(
    page: Page, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, notice=True)
    await login(page)
    heading = page.get_by_role("heading", name="Правила бронирования изменились")
    await expect(heading).to_be_visible()
    await page.get_by_role("button", name="Продолжить").click()
    await expect(page.get_by_role("alert")).to_contain_text("ознакомились с правилами")
    await page.get_by_label("Я ознакомлен(а) с правилами").check()
    await page.get_by_role("button", name="Продолжить").click()
    await expect(page.get_by_role("heading", name="Аудитории", exact=True)).to_be_visible()
    await expect(grid(page)).to_be_visible()
    await page.get_by_role("link", name="Мои брони").click()
    await expect(page.get_by_role("heading", name="Мои брони")).to_be_visible()
    await page.get_by_role("link", name="Выйти").click()
    await login(page)
    await expect(page.get_by_role("heading", name="Аудитории", exact=True)).to_be_visible()


async def test_alt_layout_changes_ids_but_labels_and_roles_still_work(
    page: Page, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, layout="alt")
    await page.goto("/login")
    assert await page.get_by_label("Имя пользователя").get_attribute("id") != "username"
    await login(page)
    building = page.get_by_label("Корпус")
    assert await building.get_attribute("id") != "building"
    await building.select_option("lab")
    await page.get_by_label("Дата").fill(FRIDAY.isoformat())
    await page.get_by_role("button", name="Показать").click()
    await expect(grid(page)).to_be_visible()
    room_id = await free_room(portal.url, "lab", FRIDAY, "18:00", "18:30")
    number = room_id.split("-")[1]
    await grid(page).get_by_role("link", name=f"Аудитория {number}, 18:00–18:30, свободно").click()
    await page.get_by_label("Цель бронирования").fill("Клуб")
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page.get_by_role("heading", name="Бронь оформлена")).to_be_visible()
    await page.get_by_role("link", name="Мои брони").first.click()
    rows = page.get_by_role("table", name="Мои брони").get_by_role("row")
    await expect(rows).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    await page.get_by_role("button", name="Отменить").click()
    await expect(rows).to_have_count(1)


async def test_bad_quirks_are_rejected(portal: RunningPortal) -> None:
    async with aiohttp.ClientSession() as http:
        bad = ({"error_rate": 2}, {"error_gap": -1}, {"layout": "neon"}, {"full_building": "x"})
        for body in (*bad, {"x": 1}):
            resp = await http.post(f"{portal.url}/_test/quirks", json=body)
            assert resp.status == 400, body
            assert "error" in await resp.json()
        current = await (await http.get(f"{portal.url}/_test/quirks")).json()
        assert current["error_rate"] == 0.0 and current["layout"] == "default"
