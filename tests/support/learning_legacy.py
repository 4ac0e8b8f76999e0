"""The operator of ``clubman learn`` on the legacy-style test site (``portal/legacy``), as a
person would show it: log in (the password's label in English), choose the day in the
schedule's form, book a free slot from the grid's link (rooms across, times down), book
it again (the site refuses in a plain ``div``), search «мои брони» with nothing typed, and
cancel through the browser's own ``confirm()``. Used by the learning test and a benchmark."""

from __future__ import annotations

import asyncio
import re
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page

from tests.adapters.refportal.helpers import FRIDAY
from tests.support.learning import Demonstration, Learner, run_learn

__all__ = ["LEGACY_PASSWORD", "LEGACY_PURPOSE", "LEGACY_ROOM", "demonstrate_legacy"]

LEGACY_PASSWORD = "club-demo"
LEGACY_ROOM = "201"  # main building, free in the evening on every seeded day
LEGACY_PURPOSE = "Шахматы"


async def demonstrate_legacy(
    url: str, chromium: str, work: Path, *, day: date = FRIDAY, today: date | None = None
) -> Demonstration:
    """Play the operator through ``clubman learn`` on the legacy site and
    leave the draft unchecked; the booking shown is cancelled in it."""
    shown = f"{day:%d.%m.%Y}"

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(r"/auth/login"))  # the site sends there first
        await page.get_by_label("Логин").fill("club")
        await page.get_by_label("Password").fill(LEGACY_PASSWORD)
        await page.get_by_role("button", name="Войти").click()
        await page.wait_for_url(re.compile(r"/schedule"))
        await learner.answer()

        await learner.prompt("Шаг 2 из 6")
        await page.get_by_label("Корпус").select_option(label="Главный корпус")
        await page.get_by_label("Дата").fill(shown)
        await page.get_by_role("button", name="Show").click()
        await page.wait_for_url(re.compile(re.escape(f"day={shown}")))
        await learner.answer(shown)

        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{LEGACY_ROOM} 18:00-19:00")
        await learner.prompt(f"Забронируйте аудиторию {LEGACY_ROOM}")
        await page.get_by_title(f"Забронировать {LEGACY_ROOM} в 18:00").click()
        await page.wait_for_url(re.compile(r"/reserve\?"))
        form = page.url  # the grid's link: the form for this room and time
        await _fill(page)
        await page.wait_for_url(re.compile(r"/reservation/\d+$"))
        await learner.answer()

        await learner.prompt("Шаг 4 из 6")
        await page.goto(form)  # the same form again: the site refuses the slot
        await _fill(page)
        await page.locator("[data-code]").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 5 из 6")
        await page.get_by_role("link", name="Мои брони").click()
        await page.get_by_role("button", name="Найти").click()  # nothing typed: every booking
        await page.get_by_role("table").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 6 из 6")
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        row = page.get_by_role("row").filter(has_text=LEGACY_PURPOSE)
        await row.get_by_role("button", name="Отменить").click()
        await row.wait_for(state="detached")  # listed no more: cancelled
        await learner.answer()

        await learner.prompt("Проверим профиль на сайте как club")
        await learner.answer()  # not checked here: the contract suite runs on the draft

    return await run_learn(
        url, chromium, work, name="legacy", room=LEGACY_ROOM, operator=operator, today=today
    )


async def _fill(page: Page) -> None:
    await page.get_by_label("До").select_option(label="19:00")
    await page.get_by_label("Comment").fill(LEGACY_PURPOSE)
    await page.get_by_role("button", name="Сохранить").click()
    await page.wait_for_load_state()
