"""Concurrent double booking (exactly one wins) and the /_test API switch."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import aiohttp
import pytest
from playwright.async_api import Browser, Page, expect

from portal.server import RunningPortal, running_portal
from tests.portal.helpers import START, HttpUser, all_bookings, free_room, login

pytestmark = pytest.mark.asyncio(loop_scope="session")

SATURDAY = START.date() + timedelta(days=5)


def _slot(bookings: list[dict[str, object]], room_id: str) -> list[dict[str, object]]:
    return [
        b
        for b in bookings
        if b["room"] == room_id
        and b["date"] == SATURDAY.isoformat()
        and b["status"] == "active"
        and b["user"] in ("club", "chess")
    ]


async def test_concurrent_posts_for_one_slot_give_exactly_one_booking(
    portal: RunningPortal,
) -> None:
    room_id = await free_room(portal.url, "main", SATURDAY, "18:00", "20:00")
    users = [HttpUser(portal.url) for _ in range(8)]
    try:
        forms = []
        for n, user in enumerate(users):
            name = ("club", "chess")[n % 2]
            assert (await user.login(name, f"{name}-demo")).status == 200
            forms.append(await user.book_form(room_id, SATURDAY, "18:00", "20:00"))
        # Different but overlapping intervals race too.
        forms[1]["start"], forms[1]["end"] = "19:00", "21:00"
        responses = await asyncio.gather(
            *(user.post("/book", form) for user, form in zip(users, forms, strict=True))
        )
        statuses = sorted(r.status for r in responses)
        assert statuses == [303] + [409] * 7
        for r in responses:
            if r.status == 409:
                assert "Это время уже занято" in await r.text()
    finally:
        for user in users:
            await user.__aexit__()
    assert len(_slot(await all_bookings(portal.url), room_id)) == 1


async def test_two_browsers_click_book_at_once_and_one_wins(
    browser: Browser, portal: RunningPortal
) -> None:
    room_id = await free_room(portal.url, "chaikovsky", SATURDAY, "18:00", "20:00")
    contexts = [await browser.new_context(base_url=portal.url) for _ in range(2)]
    try:
        pages: list[Page] = [await ctx.new_page() for ctx in contexts]
        for page, name in zip(pages, ("club", "chess"), strict=True):
            form = f"/book?room={room_id}&date={SATURDAY}&start=18:00&end=20:00"
            await login(page, name, f"{name}-demo", then=form)
            await page.get_by_label("Цель бронирования").fill(f"Клуб {name}")
        await asyncio.gather(
            *(p.get_by_role("button", name="Забронировать").click() for p in pages)
        )
        headings = []
        for page in pages:
            heading = page.get_by_role("heading", name=re.compile("Бронь оформлена|Бронирование"))
            await expect(heading).to_be_visible()
            headings.append(await heading.inner_text())
        assert sorted(headings) == ["Бронирование аудитории", "Бронь оформлена"]
        loser = pages[headings.index("Бронирование аудитории")]
        await expect(loser.get_by_role("alert")).to_contain_text("уже занято")
    finally:
        for ctx in contexts:
            await ctx.close()
    assert len(_slot(await all_bookings(portal.url), room_id)) == 1


async def test_test_routes_are_absent_without_test_api() -> None:
    async with running_portal(seed=1) as plain, aiohttp.ClientSession() as http:
        assert (await http.get(f"{plain.url}/_test/bookings")).status == 404
        assert (await http.post(f"{plain.url}/_test/reset", json={})).status == 404
        assert (await http.post(f"{plain.url}/_test/quirks", json={})).status == 404
        assert (await http.get(f"{plain.url}/login")).status == 200


async def test_reset_reseeds_and_clears_sessions_and_quirks(portal: RunningPortal) -> None:
    async with aiohttp.ClientSession() as http, HttpUser(portal.url) as club:
        seeded = await all_bookings(portal.url)
        assert seeded and min(b["id"] for b in seeded) == 1
        await club.login("club", "club-demo")
        await http.post(f"{portal.url}/_test/quirks", json={"latency_ms": 50})
        resp = await http.post(f"{portal.url}/_test/reset", json={"seed": None})
        assert await resp.json() == {"ok": True, "seed": None}
        assert await all_bookings(portal.url) == []
        assert (await (await http.get(f"{portal.url}/_test/quirks")).json())["latency_ms"] == 0
        my = await club.http.get(f"{portal.url}/my")
        assert my.url.path == "/login"  # the session is gone
        await http.post(f"{portal.url}/_test/reset", json={"seed": 1})
        assert await all_bookings(portal.url) == seeded
        await http.post(f"{portal.url}/_test/reset")  # no body: the app's own seed
        assert await all_bookings(portal.url) == seeded


async def test_availability_json_shape(portal: RunningPortal) -> None:
    async with HttpUser(portal.url) as club:
        await club.login("club", "club-demo")
        url = f"{portal.url}/api/availability?building=lab&date={SATURDAY}"
        data = await (await club.http.get(url)).json()
        assert data["building"] == {"code": "lab", "name": "Лабораторный корпус"}
        assert (data["date"], data["open"], data["close"], data["slot_minutes"]) == (
            SATURDAY.isoformat(), "08:00", "22:00", 30,
        )  # fmt: skip
        assert [r["id"] for r in data["rooms"]] == [f"lab-{n}" for n in range(501, 507)]
        seeded = {
            (b["room"], b["start"], b["end"])
            for b in await all_bookings(portal.url)
            if b["building"] == "lab" and b["date"] == SATURDAY.isoformat()
        }
        listed = {(r["id"], i["start"], i["end"]) for r in data["rooms"] for i in r["busy"]}
        assert listed == seeded
        assert {"floor", "capacity", "number"} <= set(data["rooms"][0])
        bad = await club.http.get(f"{portal.url}/api/availability?building=nowhere")
        assert bad.status == 404


async def test_unknown_pages_and_rooms_are_404(page: Page) -> None:
    await login(page, then="/my")
    response = await page.goto("/book?room=main-999")
    assert response is not None and response.status == 404
    await expect(page.get_by_role("heading", name="Страница не найдена")).to_be_visible()
    await page.goto("/rooms?building=nowhere")
    await expect(page.get_by_role("alert")).to_contain_text("Такого корпуса нет")
