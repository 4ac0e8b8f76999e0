"""A straight demonstration of the reference portal to ``clubman learn`` (no step done
wrong, the draft not checked): what ``bench/learn.py`` times and the learned profile's
contract test starts from."""

from __future__ import annotations

import asyncio
import re
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page

from tests.support.learning import Demonstration, Learner, run_learn

__all__ = ["demonstrate_refportal"]

PASSWORD = "club-demo"


async def demonstrate_refportal(
    url: str,
    chromium: str,
    work: Path,
    *,
    room: str,
    day: date,
    check: bool = False,
    today: date | None = None,
) -> Demonstration:
    """Log in as ``club``, show the main building on ``day``, book ``room`` 18:00–19:00
    («Шахматы»), book it again (refused), open «my bookings» and cancel it; ``check``:
    give the password for the learner's check of its draft."""

    async def book(page: Page) -> None:
        await page.goto(f"{url}/book?room=main-{room}&date={day.isoformat()}&start=18:00&end=18:30")
        await page.get_by_label("Окончание").select_option("19:00")
        await page.get_by_label("Цель бронирования").fill("Шахматы")
        await page.get_by_role("button", name="Забронировать").click()

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(re.escape(url)))
        await page.goto(f"{url}/logout")  # a browser logged in before
        await page.goto(f"{url}/login")
        await page.get_by_label("Имя пользователя").fill("club")
        await page.get_by_label("Пароль").fill(PASSWORD)
        await page.get_by_role("button", name="Войти").click()
        await page.wait_for_url(lambda at: "/login" not in at)
        await learner.answer()
        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{url}/rooms?building=main&date={day.isoformat()}")
        await learner.answer(f"{day:%d.%m.%Y}")
        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{room} 18:00-19:00")
        await learner.prompt(f"Забронируйте аудиторию {room}")
        await book(page)
        await page.wait_for_url(re.compile(r"/booking/\d+$"))
        await learner.answer()
        await learner.prompt("Шаг 4 из 6")
        await book(page)  # the same slot again: the site refuses it
        await page.get_by_role("alert").wait_for()
        await learner.answer()
        await learner.prompt("Шаг 5 из 6")
        await page.goto(f"{url}/my")
        await learner.answer()
        await learner.prompt("Шаг 6 из 6")
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        row = page.get_by_role("row").filter(has_text="Шахматы")
        await row.get_by_role("button", name="Отменить").click()
        await page.wait_for_load_state()
        await learner.answer()
        await learner.prompt("Проверим профиль на сайте как club")
        await learner.answer(PASSWORD if check else "")

    return await run_learn(
        url, chromium, work, name="ref", room=room, operator=operator, today=today
    )
