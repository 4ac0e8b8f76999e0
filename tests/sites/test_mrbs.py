"""The test MRBS itself (tests/sites/mrbs.py): its seed, its truth helpers, and its own
pages in Russian through real Chromium — what a profile for MRBS will be checked against."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.async_api import BrowserContext, Page, expect

from tests.sites.mrbs import AREAS, MrbsAccount, MrbsServer

on_session_loop = pytest.mark.asyncio(loop_scope="session")

MAIN = "Главный корпус"
_RU_MONTHS = [  # the genitive, as in «8 декабря 2026 г.»
    *("января", "февраля", "марта", "апреля", "мая", "июня"),
    *("июля", "августа", "сентября", "октября", "ноября", "декабря"),
]


async def _log_in(page: Page, account: MrbsAccount, password: str | None = None) -> None:
    """Fill MRBS's login form, shown in place of whatever page was asked for, and send it."""
    form = page.locator("form#logon")
    await expect(form.locator("legend")).to_have_text("Пожалуйста, войдите в систему")
    await form.get_by_label("Пользователь").fill(account.username)
    await form.get_by_label("Пароль").fill(account.password if password is None else password)
    async with page.expect_navigation():
        await form.get_by_role("button", name="Войти в систему").click()


def test_the_seed_is_in_mrbs_tables(mrbs_server: MrbsServer) -> None:
    rooms = mrbs_server.rooms()
    assert [(r.area, r.name) for r in rooms] == [
        (area, name) for area, listed in AREAS.items() for name, _, _ in listed
    ]
    assert all(r.capacity > 0 for r in rooms)
    seeded = mrbs_server.bookings()
    assert {b.id for b in seeded} == mrbs_server.seeded and len(seeded) == 5
    assert {b.create_by for b in seeded} == {mrbs_server.other.username}
    assert all(b.start.date() > mrbs_server.seeded_on for b in seeded)
    assert mrbs_server.bookings(mrbs_server.club.username) == []
    assert mrbs_server.club.password != mrbs_server.other.password


def test_someone_elses_booking_is_made_and_the_clubs_are_deleted(
    mrbs_server: MrbsServer,
) -> None:
    day = mrbs_server.today() + timedelta(days=4)
    start, end = mrbs_server.at(day, "12:00"), mrbs_server.at(day, "13:30")
    theirs = mrbs_server.add_booking("301", start, end, "Чужая встреча")
    ours = mrbs_server.add_booking("302", start, end, "Клуб", user="club")
    made = mrbs_server.booking(ours)
    assert made is not None
    assert (made.room, made.area, made.start, made.end) == ("302", "Корпус Чайковского", start, end)
    assert made.create_by == mrbs_server.club.username
    assert mrbs_server.delete_bookings("club") == [ours]
    assert mrbs_server.booking(theirs) is not None and mrbs_server.booking(ours) is None
    mrbs_server.as_seeded()
    assert {b.id for b in mrbs_server.bookings()} == mrbs_server.seeded


@on_session_loop
async def test_the_club_logs_in_in_russian_and_sees_the_day_with_its_rooms(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    day = mrbs_server.seeded_on + timedelta(days=1)
    area = mrbs_server.room("101").area_id
    page = await context.new_page()
    address = f"{mrbs_server.base_url}/index.php?view=day&page_date={day}&area={area}"
    await page.goto(address)
    await _log_in(page, mrbs_server.club)  # the login form stood in for the day view
    assert page.url == address  # after logging in, the page that was asked for

    heading = page.locator(".date_heading h2.date")
    await expect(heading).to_contain_text(f"{day.day} {_RU_MONTHS[day.month - 1]} {day.year}")
    grid = page.locator("table#day_main")
    headers = grid.locator("thead th[data-room]")
    # A room's header is its name with its capacity in a span after it («10130»).
    assert [
        await h.locator("a").evaluate("a => a.firstChild.textContent") for h in await headers.all()
    ] == [name for name, _, _ in AREAS[MAIN]]
    assert await headers.locator(".capacity").all_inner_texts() == [
        str(capacity) for _, capacity, _ in AREAS[MAIN]
    ]
    seminar = grid.locator("td.booked a", has_text="Семинар по матанализу")
    await expect(seminar).to_have_attribute("href", re.compile(r"view_entry\.php\?.*id=\d+"))
    free = grid.locator("td.new a[href*='edit_entry.php']")
    assert await free.count() > 0
    await expect(page.locator("#show_my_entries input[type=submit]")).to_have_value(
        mrbs_server.club.display_name
    )


@on_session_loop
async def test_a_booking_made_in_mrbs_form_is_in_its_table(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    day = mrbs_server.seeded_on + timedelta(days=2)
    room = mrbs_server.room("103")
    page = await context.new_page()
    await page.goto(
        f"{mrbs_server.base_url}/edit_entry.php?view=day&year={day.year}&month={day.month}"
        f"&day={day.day}&area={room.area_id}&room={room.id}&hour=18&minute=0"
    )
    await _log_in(page, mrbs_server.club)
    form = page.locator("form#main")
    await form.get_by_label("Краткое описание").fill("Клуб робототехники: занятие")
    await form.locator("select#end_seconds").select_option(str(20 * 3600))  # 20:00
    async with page.expect_navigation():
        await form.locator("input[name=save_button]").click()
    assert "index.php?view=day" in page.url  # MRBS answers with the day view

    made = mrbs_server.bookings(mrbs_server.club.username)
    assert [(b.room, b.start, b.end, b.name) for b in made] == [
        (
            "103",
            mrbs_server.at(day, "18:00"),
            mrbs_server.at(day, "20:00"),
            "Клуб робототехники: занятие",
        )
    ]
    ours = page.locator(f"table#day_main td.booked a[data-id='{made[0].id}']")
    await expect(ours).to_have_text("Клуб робототехники: занятие")


@on_session_loop
async def test_a_wrong_password_and_an_ended_session_show_the_login_form_in_place(
    mrbs_server: MrbsServer, context: BrowserContext
) -> None:
    page = await context.new_page()
    address = f"{mrbs_server.base_url}/index.php?view=day&area={mrbs_server.room('301').area_id}"
    await page.goto(address)
    await _log_in(page, mrbs_server.club, password="not-the-password")
    await expect(page.locator("form#logon")).to_contain_text("неизвестный пользователь")
    await _log_in(page, mrbs_server.club)
    await expect(page.locator("table#day_main")).to_be_visible()
    assert mrbs_server.end_sessions() >= 1  # the site ends every session
    await page.reload()
    assert page.url == address
    await expect(page.locator("form#logon")).to_be_visible()
    await expect(page.locator("table#day_main")).to_have_count(0)
