"""The operator of ``clubman learn`` on MRBS set up as a site nobody tuned the learner for
(``VARIANT`` in tests/sites/mrbs.py): the demonstration of ``tests.support.learning_mrbs``
on English pages, 15-minute slots from 9:00 to 18:00, a 14-day window and a room named
in words («Room N-113» in «North Campus»). Only what the operator sees and types
differs: the learner is told nothing else."""

from __future__ import annotations

import asyncio
import re
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page

from tests.sites.mrbs import MrbsServer
from tests.support.learning import Demonstration, Learner, run_learn

__all__ = ["VARIANT_PURPOSE", "VARIANT_ROOM", "VARIANT_RULES", "demonstrate_mrbs_variant"]

VARIANT_ROOM = "Room N-113"  # «North Campus» (area 1), free in the afternoon past the seed's days
VARIANT_PURPOSE = "Chess club"
# What the site's config.inc.php sets (tests/sites/mrbs.py, VARIANT), as the operator says it.
VARIANT_RULES = "09:00-18:00, шаг 15 минут, без ограничения длительности, на 14 дней вперёд"


async def demonstrate_mrbs_variant(
    server: MrbsServer, chromium: str, work: Path, *, day: date
) -> Demonstration:
    """Play the operator through ``clubman learn`` on the variant ``server`` as its club
    account, showing ``day`` in «North Campus»."""
    url = server.base_url
    club = server.club
    room = server.room(VARIANT_ROOM)

    async def book(page: Page) -> None:
        await page.locator("form#main input#name").fill(VARIANT_PURPOSE)
        await page.locator("form#main select#end_seconds").select_option(str(17 * 3600))
        await page.get_by_role("button", name="Save").click()
        await page.wait_for_load_state()

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(re.escape(url)))
        await page.locator("form#logon").wait_for()
        await page.locator("form#logon input#username").fill(club.username)
        await page.locator("form#logon input#password").fill(club.password)
        await page.get_by_role("button", name="Log in").click()
        await page.locator("body.logged_in").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{url}/index.php?view=day&page_date={day.isoformat()}&area={room.area_id}")
        await page.locator("table#day_main").wait_for()
        await learner.answer(f"{day:%d.%m.%Y}")
        await learner.prompt("На странице не видно правил бронирования")
        await learner.answer(VARIANT_RULES)

        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{VARIANT_ROOM} 16:00-17:00")
        await learner.prompt(f"Забронируйте аудиторию {VARIANT_ROOM}")
        cell = page.locator(f"td.new a[href*='room={room.id}&hour=16&minute=0']")
        await cell.click()
        await page.locator("form#main").wait_for()
        form = page.url
        await book(page)
        await page.locator("table#day_main").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 4 из 6")
        await page.goto(form)
        await book(page)
        await page.get_by_role("heading", name="Scheduling Conflict").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 5 из 6")
        await page.locator("form#show_my_entries input[type=submit]").click()
        await page.locator("table#search_results a", has_text=VARIANT_PURPOSE).wait_for()
        await learner.answer()

        await learner.prompt("Откройте страницу этой брони")
        await page.locator("table#search_results a", has_text=VARIANT_PURPOSE).click()
        await page.get_by_role("button", name="Delete Entry").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 6 из 6")
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await page.get_by_role("button", name="Delete Entry").click()
        await page.wait_for_url(lambda at: "view_entry.php" not in at)
        await learner.answer()

        await learner.prompt("Проверим профиль на сайте как")
        await learner.answer("")

    return await run_learn(
        url, chromium, work, name="mrbs", room=VARIANT_ROOM, operator=operator,
        today=server.today(),
    )  # fmt: skip
