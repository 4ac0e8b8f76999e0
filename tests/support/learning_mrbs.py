"""The operator of ``clubman learn`` on a real MRBS 1.12.2 (``tests/sites/mrbs.py``), as a
person would show it: the login form MRBS draws in place on its first page, the day of
one area, a booking made from a free cell's link (the form checks the slot in the
background as soon as it opens), the same booking again (MRBS's conflict page), MRBS's
own «my bookings» (the banner's button: a search), the booking's own page opened from
it (asked for: no page the save led to was it), and a cancel there through the
browser's ``confirm()``.

The same demonstration on the stock server (``STOCK_SHOW``: Russian pages) and on the one
set up as a site nobody tuned the learner for (``VARIANT_SHOW``: English pages, 15-minute
slots 9:00–18:00, a 14-day window, a room named in words «Room N-113» in «North
Campus»): only what the operator sees and types differs, the learner is told nothing
else. Used by the learning tests and ``bench/learn.py``."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page

from tests.sites.mrbs import MrbsServer
from tests.support.learning import Demonstration, Learner, run_learn

__all__ = ["STOCK_SHOW", "VARIANT_SHOW", "MrbsShow", "demonstrate_mrbs"]


@dataclass(frozen=True)
class MrbsShow:
    """What the operator books, says and presses on one MRBS."""

    room: str  # free at ``start``–``end`` past the seed's days
    purpose: str
    rules: str  # what the site's config.inc.php sets, as the operator would say it
    start: int  # the booking's hours
    end: int
    log_in: str  # the pages' words for the buttons pressed
    save: str
    delete: str
    conflict: str  # the heading of MRBS's conflict page


STOCK_SHOW = MrbsShow(
    room="101",  # «Главный корпус» (area 1)
    purpose="Шахматы",
    rules="08:00-21:00, шаг 30 минут, без ограничения длительности, на 30 дней вперёд",
    start=18,
    end=19,
    log_in="Войти в систему",
    save="Сохранить",
    delete="Удалить запись",
    conflict="Конфликт резервирования",
)
VARIANT_SHOW = MrbsShow(
    room="Room N-113",  # «North Campus» (area 1)
    purpose="Chess club",
    rules="09:00-18:00, шаг 15 минут, без ограничения длительности, на 14 дней вперёд",
    start=16,
    end=17,
    log_in="Log in",
    save="Save",
    delete="Delete Entry",
    conflict="Scheduling Conflict",
)


async def demonstrate_mrbs(
    server: MrbsServer,
    chromium: str,
    work: Path,
    *,
    day: date,
    show: MrbsShow = STOCK_SHOW,
    check: bool = False,
) -> Demonstration:
    """Play the operator through ``clubman learn`` on ``server`` as its club account,
    showing ``day`` in the booked room's area; ``check``: give the password for the
    learner's check of its draft."""
    url = server.base_url
    club = server.club
    room = server.room(show.room)

    async def book(page: Page) -> None:
        await page.locator("form#main input#name").fill(show.purpose)
        await page.locator("form#main select#end_seconds").select_option(str(show.end * 3600))
        await page.get_by_role("button", name=show.save).click()
        await page.wait_for_load_state()

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(re.escape(url)))
        await page.locator("form#logon").wait_for()  # drawn in place on the first page
        await page.locator("form#logon input#username").fill(club.username)
        await page.locator("form#logon input#password").fill(club.password)
        await page.get_by_role("button", name=show.log_in).click()
        await page.locator("body.logged_in").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{url}/index.php?view=day&page_date={day.isoformat()}&area={room.area_id}")
        await page.locator("table#day_main").wait_for()
        await learner.answer(f"{day:%d.%m.%Y}")
        await learner.prompt("На странице не видно правил бронирования")
        await learner.answer(show.rules)

        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{show.room} {show.start}:00-{show.end}:00")
        await learner.prompt(f"Забронируйте аудиторию {show.room}")
        cell = page.locator(f"td.new a[href*='room={room.id}&hour={show.start}&minute=0']")
        await cell.click()  # the free cell's link opens the form for its room and time
        await page.locator("form#main").wait_for()
        form = page.url
        await book(page)
        await page.locator("table#day_main").wait_for()  # saved: back on the day
        await learner.answer()

        await learner.prompt("Шаг 4 из 6")
        await page.goto(form)  # the same form again: MRBS refuses the slot
        await book(page)
        await page.get_by_role("heading", name=show.conflict).wait_for()
        await learner.answer()

        await learner.prompt("Шаг 5 из 6")
        await page.locator("form#show_my_entries input[type=submit]").click()
        await page.locator("table#search_results a", has_text=show.purpose).wait_for()
        await learner.answer()

        await learner.prompt("Откройте страницу этой брони")  # the save named no page
        await page.locator("table#search_results a", has_text=show.purpose).click()
        await page.get_by_role("button", name=show.delete).wait_for()
        await learner.answer()

        await learner.prompt("Шаг 6 из 6")
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await page.get_by_role("button", name=show.delete).click()
        await page.wait_for_url(lambda at: "view_entry.php" not in at)  # deleted: back
        await learner.answer()

        await learner.prompt("Проверим профиль на сайте как")
        await learner.answer(club.password if check else "")

    return await run_learn(
        url, chromium, work, name="mrbs", room=show.room, operator=operator,
        today=server.today(),
    )  # fmt: skip
