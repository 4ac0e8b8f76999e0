"""Rooms grid, booking, every rule's error on the page, «Мои брони» and cancelling."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.async_api import Dialog, Page, expect

from portal.clock import fmt_hhmm, parse_hhmm
from portal.data import room
from portal.server import RunningPortal
from tests.portal.helpers import (
    START,
    HttpUser,
    all_bookings,
    busy_booking,
    free_room,
    grid,
    login,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

THURSDAY = START.date() + timedelta(days=3)


async def test_grid_is_loaded_by_script_with_rooms_floors_and_capacities(page: Page) -> None:
    await login(page)
    await page.get_by_label("Корпус").select_option(label="Корпус на Чайковского")
    await page.get_by_label("Дата").fill(THURSDAY.isoformat())
    await page.get_by_role("button", name="Показать").click()
    await expect(page).to_have_url(re.compile(rf"building=chaikovsky&date={THURSDAY}"))
    table = grid(page)
    await expect(table).to_be_visible()  # appears only after the JSON has arrived
    await expect(table.get_by_role("row")).to_have_count(1 + 16)
    r108 = room("chaikovsky-108")
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=re.compile("108")))
    await expect(row.get_by_role("rowheader")).to_have_text(f"1081 этаж · {r108.capacity} мест")
    await expect(row.get_by_role("cell")).to_have_count(28)  # 08:00–22:00 in 30-minute cells
    await expect(page.get_by_role("status")).to_contain_text("Аудиторий: 16")
    legend = page.get_by_label("Обозначения")
    for text in ("Свободно", "Занято", "Ваша бронь"):
        await expect(legend).to_contain_text(text)


async def test_grid_shows_seeded_bookings_as_busy(page: Page, portal: RunningPortal) -> None:
    seeded = await busy_booking(portal.url, THURSDAY)
    number = seeded["room_number"]
    await login(page)
    await page.goto(f"/rooms?building={seeded['building']}&date={THURSDAY}")
    end = fmt_hhmm((parse_hhmm(seeded["start"]) or 0) + 30)
    cell = f"Аудитория {number}, {seeded['start']}–{end}, свободно"
    await expect(grid(page)).to_be_visible()
    await expect(page.get_by_role("link", name=cell, exact=True)).to_have_count(0)
    room_links = page.get_by_role("link", name=re.compile(f"^Аудитория {number}, "))
    await expect(room_links).not_to_have_count(0)  # the rest of the day is free


async def test_book_from_a_free_cell_then_see_and_cancel_it(
    page: Page, portal: RunningPortal
) -> None:
    room_id = await free_room(portal.url, "main", THURSDAY, "18:00", "20:00")
    number = room(room_id).number
    await login(page)
    await page.goto(f"/rooms?building=main&date={THURSDAY}")
    await grid(page).get_by_role("link", name=f"Аудитория {number}, 18:00–18:30, свободно").click()
    await expect(page.get_by_role("heading", name="Бронирование аудитории")).to_be_visible()
    await expect(page.get_by_label("Начало")).to_have_value("18:00")
    await page.get_by_label("Окончание").select_option("20:00")
    await page.get_by_label("Цель бронирования").fill("Заседание шахматного клуба")
    await page.get_by_label("Количество участников").fill("12")
    await page.get_by_role("button", name="Забронировать").click()

    await expect(page.get_by_role("heading", name="Бронь оформлена")).to_be_visible()
    status = await page.get_by_role("status").inner_text()
    booking_id = int(re.search(r"Номер брони: (\d+)", status).group(1))  # type: ignore[union-attr]
    mine = [b for b in await all_bookings(portal.url) if b["id"] == booking_id]
    assert mine == [
        {
            "id": booking_id, "user": "club", "building": "main", "room": room_id,
            "room_number": number, "date": THURSDAY.isoformat(), "start": "18:00",
            "end": "20:00", "purpose": "Заседание шахматного клуба", "attendees": 12,
            "status": "active",
        }
    ]  # fmt: skip

    await page.get_by_role("link", name="Мои брони").first.click()
    await expect(page.get_by_role("heading", name="Мои брони")).to_be_visible()
    table = page.get_by_role("table", name="Мои брони")
    rows = table.get_by_role("row")
    await expect(rows).to_have_count(2)  # header + one booking
    cells = rows.nth(1).get_by_role("cell")
    await expect(cells).to_have_text(
        [str(booking_id), "Главный корпус", number, "26.11.2026 (чт)", "18:00–20:00",
         "Заседание шахматного клуба", "Отменить"]
    )  # fmt: skip

    # The grid now shows the slot as ours.
    await page.goto(f"/rooms?building=main&date={THURSDAY}")
    await expect(grid(page)).to_be_visible()
    ours = page.get_by_role("link", name=f"Аудитория {number}, 18:30–19:00, свободно")
    await expect(ours).to_have_count(0)
    await expect(grid(page).get_by_text("ваша бронь")).to_have_count(4)

    # Dismissing the confirm dialog keeps the booking; accepting it cancels.
    await page.goto("/my")
    dialogs: list[str] = []

    async def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.dismiss()

    page.once("dialog", dismiss)
    await page.get_by_role("button", name="Отменить").click()
    await expect(rows).to_have_count(2)
    assert dialogs and f"Отменить бронь № {booking_id}" in dialogs[0]

    async def accept(dialog: Dialog) -> None:
        await dialog.accept()

    page.once("dialog", accept)
    await page.get_by_role("button", name="Отменить").click()
    await expect(page.get_by_role("status")).to_have_text(f"Бронь № {booking_id} отменена.")
    await expect(rows).to_have_count(1)
    cancelled = [b for b in await all_bookings(portal.url) if b["id"] == booking_id]
    assert cancelled[0]["status"] == "cancelled"


_ERRORS = [
    pytest.param(1, "07:00", "08:00", "10", "только с 08:00 до 22:00", id="before-opening"),
    pytest.param(1, "21:00", "22:30", "10", "только с 08:00 до 22:00", id="after-closing"),
    pytest.param(1, "18:15", "19:00", "10", "кратны 30 минутам", id="not-aligned"),
    pytest.param(1, "10:00", "14:30", "10", "не может быть длиннее 4 часов", id="too-long"),
    pytest.param(15, "18:00", "19:00", "10", "не более чем на 14 дней", id="too-far"),
    pytest.param(-1, "18:00", "19:00", "10", "на прошедшее время", id="in-past"),
    pytest.param(1, "18:00", "19:00", "999", "Участников больше, чем мест", id="over-capacity"),
]


@pytest.mark.parametrize(("days", "start", "end", "attendees", "message"), _ERRORS)
async def test_rule_violations_are_explained_on_the_page(
    page: Page, portal: RunningPortal, days: int, start: str, end: str, attendees: str,
    message: str,
) -> None:  # fmt: skip
    day = START.date() + timedelta(days=days)
    await login(page, then=f"/book?room=lab-503&date={day}&start={start}&end={end}")
    await page.get_by_label("Цель бронирования").fill("Семинар")
    await page.get_by_label("Количество участников").fill(attendees)
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page.get_by_role("alert")).to_contain_text(message)
    await expect(page.get_by_role("heading", name="Бронирование аудитории")).to_be_visible()
    await expect(page.get_by_label("Цель бронирования")).to_have_value("Семинар")
    assert not [b for b in await all_bookings(portal.url) if b["user"] == "club"]


async def test_taken_slot_is_refused(page: Page, portal: RunningPortal) -> None:
    seeded = await busy_booking(portal.url, THURSDAY)
    await login(
        page,
        then=f"/book?room={seeded['room']}&date={THURSDAY}&start={seeded['start']}&end={seeded['end']}",
    )
    await page.get_by_label("Цель бронирования").fill("Семинар")
    await page.get_by_role("button", name="Забронировать").click()
    await expect(page.get_by_role("alert")).to_have_text("Это время уже занято: выберите другое.")
    assert not [b for b in await all_bookings(portal.url) if b["user"] == "club"]


async def test_others_cannot_see_or_cancel_my_booking(portal: RunningPortal) -> None:
    async with HttpUser(portal.url) as club, HttpUser(portal.url) as chess:
        await club.login("club", "club-demo")
        await chess.login("chess", "chess-demo")
        room_id = await free_room(portal.url, "lab", THURSDAY, "18:00", "19:00")
        resp = await club.post("/book", await club.book_form(room_id, THURSDAY, "18:00", "19:00"))
        assert resp.status == 303
        path = resp.headers["Location"]
        booking_id = path.rsplit("/", 1)[1]
        assert (await chess.http.get(portal.url + path)).status == 404
        token = await chess.csrf("/book?room=lab-501")
        resp = await chess.post(f"/my/{booking_id}/cancel", {"csrf_token": token})
        assert resp.status == 404
        assert "Мои брони" in await (await club.http.get(portal.url + "/my")).text()
        statuses = {b["status"] for b in await all_bookings(portal.url) if b["user"] == "club"}
        assert statuses == {"active"}
