"""The operator of ``clubman learn`` on a real MRBS 1.12.2 (``tests/sites/mrbs.py``), as a
person would show it: the login form MRBS draws in place on its first page, the day of
one area, a booking made from a free cell's link (the form checks the slot in the
background as soon as it opens), the same booking again (MRBS's conflict page), MRBS's
own «my bookings» (the banner's button: a search), the booking's own page opened from
it (asked for: no page the save led to was it), and a cancel there through the
browser's ``confirm()``. Used by the learning test and ``bench/learn.py``."""

from __future__ import annotations

import asyncio
import re
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page

from tests.sites.mrbs import MrbsServer
from tests.support.learning import Demonstration, Learner, run_learn

__all__ = ["MRBS_PURPOSE", "MRBS_ROOM", "MRBS_RULES", "demonstrate_mrbs"]

MRBS_ROOM = "101"  # «Главный корпус» (area 1), free in the evening past the seed's days
MRBS_PURPOSE = "Шахматы"
# What the site's config.inc.php sets (tests/sites/mrbs.py), as the operator would say it.
MRBS_RULES = "08:00-21:00, шаг 30 минут, без ограничения длительности, на 30 дней вперёд"


async def demonstrate_mrbs(
    server: MrbsServer, chromium: str, work: Path, *, day: date, check: bool = False
) -> Demonstration:
    """Play the operator through ``clubman learn`` on ``server`` as its club account,
    showing ``day`` in the first area; ``check``: give the password for the learner's
    check of its draft."""
    url = server.base_url
    club = server.club
    room = server.room(MRBS_ROOM)

    async def book(page: Page) -> None:
        await page.locator("form#main input#name").fill(MRBS_PURPOSE)
        await page.locator("form#main select#end_seconds").select_option(str(19 * 3600))
        await page.get_by_role("button", name="Сохранить").click()
        await page.wait_for_load_state()

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(re.escape(url)))
        await page.locator("form#logon").wait_for()  # drawn in place on the first page
        await page.get_by_label("Пользователь").fill(club.username)
        await page.get_by_label("Пароль").fill(club.password)
        await page.get_by_role("button", name="Войти в систему").click()
        await page.locator("body.logged_in").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{url}/index.php?view=day&page_date={day.isoformat()}&area={room.area_id}")
        await page.locator("table#day_main").wait_for()
        await learner.answer(f"{day:%d.%m.%Y}")
        await learner.prompt("На странице не видно правил бронирования")
        await learner.answer(MRBS_RULES)

        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{MRBS_ROOM} 18:00-19:00")
        await learner.prompt(f"Забронируйте аудиторию {MRBS_ROOM}")
        cell = page.locator(f"td.new a[href*='room={room.id}&hour=18&minute=0']")
        await cell.click()  # the free cell's link opens the form for its room and time
        await page.locator("form#main").wait_for()
        form = page.url
        await book(page)
        await page.locator("table#day_main").wait_for()  # saved: back on the day
        await learner.answer()

        await learner.prompt("Шаг 4 из 6")
        await page.goto(form)  # the same form again: MRBS refuses the slot
        await book(page)
        await page.get_by_role("heading", name="Конфликт резервирования").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 5 из 6")
        await page.locator("form#show_my_entries input[type=submit]").click()
        await page.locator("table#search_results a", has_text=MRBS_PURPOSE).wait_for()
        await learner.answer()

        await learner.prompt("Откройте страницу этой брони")  # the save named no page
        await page.locator("table#search_results a", has_text=MRBS_PURPOSE).click()
        await page.get_by_role("button", name="Удалить запись").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 6 из 6")
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await page.get_by_role("button", name="Удалить запись").click()
        await page.wait_for_url(lambda at: "view_entry.php" not in at)  # deleted: back
        await learner.answer()

        await learner.prompt("Проверим профиль на сайте как")
        await learner.answer(club.password if check else "")

    return await run_learn(
        url, chromium, work, name="mrbs", room=MRBS_ROOM, operator=operator,
        today=server.today(),
    )  # fmt: skip
