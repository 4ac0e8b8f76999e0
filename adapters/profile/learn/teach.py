"""The demonstration, step by step: each step's prompt, what the operator is asked to
name, and the check that the step really happened (a password typed, a booking sent, the
same booking sent again and refused, a cancel sent or confirmed, the window still open);
a step that did not is asked again, never skipped.

``teach`` talks through two callables, ``say`` (a line out) and ``ask`` (a line in), so a
person at a terminal and a test script drive it alike.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, time

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Recording, Step, StepName
from adapters.profile.template import parse_date, parse_time
from core.errors import ClubError

__all__ = ["LearnStopped", "Slot", "parse_slot", "teach"]

Say = Callable[[str], None]
Ask = Callable[[str], Awaitable[str | None]]  # None: the operator's input ended


class LearnStopped(ClubError):
    """The operator stopped the demonstration (their input ended)."""


@dataclass(frozen=True)
class Slot:
    room: str
    start: time
    end: time


_SLOT = re.compile(r"^\s*(\S+)\s+(\d{1,2}[:.]\d{2})\s*[-–—]\s*(\d{1,2}[:.]\d{2})\s*$")


def parse_slot(text: str) -> Slot | None:
    """«101 18:00-19:00» → the room and the times (None when it is not that)."""
    found = _SLOT.match(text)
    if found is None:
        return None
    start, end = parse_time(found[2]), parse_time(found[3])
    if start is None or end is None or start >= end:
        return None
    return Slot(found[1], start, end)


_TOTAL = 6


def _title(number: int, what: str) -> str:
    return f"Шаг {number} из {_TOTAL} — {what}."


async def teach(
    name: str, site: str, context: BrowserContext, page: Page, *, say: Say, ask: Ask
) -> Recording:
    """Lead the operator through logging in, a day's free rooms, a booking, the site's
    refusal of the same booking again, «my bookings» and cancelling it; return what was
    recorded."""
    recorder = Recorder(context)
    await recorder.attach()
    steps: list[Step] = []

    async def line(prompt: str) -> str:
        answer = await ask(prompt)
        if answer is None:
            raise LearnStopped(
                "Показ прерван", hint="запустите clubman learn снова, когда будете готовы"
            )
        return answer.strip()

    async def window() -> bool:
        """False when the operator closed the window: the site is opened again (in a
        window still open, else a new one) and the step is to be shown again."""
        nonlocal page
        if not page.is_closed():
            # A round trip: a close made by another client (the operator's) is heard by
            # then; a page mid-navigation fails it too, and is still open.
            with contextlib.suppress(PlaywrightError):
                await page.evaluate("1")
            if not page.is_closed():
                return True
        still = [p for p in context.pages if not p.is_closed()]
        page = still[-1] if still else await context.new_page()
        if not still:
            await page.goto(site)
        say("Окно браузера закрыто: сайт открыт снова. Повторите шаг.")
        recorder.begin()
        return False

    async def step(
        name: StepName, prompt: str, done: Callable[[], str | None], answers: dict[str, str]
    ) -> None:
        """Record one step until ``done`` finds nothing missing (its text: what is)."""
        recorder.begin()
        while True:
            await line(prompt)
            if not await window():
                continue
            missing = done()
            if missing is None:
                steps.append(await recorder.end(name, page, answers))
                return
            say(f"{missing} Повторите шаг.")

    def logged_in() -> str | None:
        if any(a.secret for a in recorder.actions):
            return None
        return "Не видно, что вы ввели пароль на сайте."

    say(f"Учимся сайту {site} («{name}»). Всё делайте в окне браузера; здесь — Enter.")
    await step(
        "login",
        _title(1, "вход") + " Войдите на сайт своим логином и паролем, затем нажмите Enter.",
        logged_in,
        {},
    )

    recorder.begin()
    day: date | None = None
    while day is None:
        written = await line(
            _title(2, "свободные аудитории") + " Откройте страницу, где видна занятость "
            "аудиторий одного корпуса на один день. Напишите этот день (ДД.ММ.ГГГГ) и Enter."
        )
        if not await window():
            continue
        day = parse_date(written, "dmy")
        if day is None:
            say("Не понял дату: напишите её как 27.11.2026.")
    steps.append(await recorder.end("day", page, {"date": day.isoformat()}))

    slot: Slot | None = None
    while slot is None:
        slot = parse_slot(
            await line(
                _title(3, "бронь") + " Напишите аудиторию и время, которые забронируете "
                "(например: 101 18:00-19:00), и Enter."
            )
        )
        if slot is None:
            say("Не понял: напишите номер аудитории и время, как 101 18:00-19:00.")

    def sent() -> str | None:
        return None if recorder.sent else "Не видно, что бронь отправлена на сайт."

    await step(
        "book",
        f"Забронируйте аудиторию {slot.room} на {day:%d.%m.%Y} с {slot.start:%H:%M} "
        f"до {slot.end:%H:%M} на сайте. Когда бронь сделана, нажмите Enter.",
        sent,
        {
            "room": slot.room,
            "date": day.isoformat(),
            "start": f"{slot.start:%H:%M}",
            "end": f"{slot.end:%H:%M}",
        },  # fmt: skip
    )

    def refused() -> str | None:
        return None if recorder.sent else "Не видно, что бронь отправлена на сайт ещё раз."

    await step(
        "refused",
        _title(4, "отказ") + f" Забронируйте ту же аудиторию {slot.room} на то же время ещё "
        "раз, чтобы бот увидел, как сайт отказывает. Когда сайт откажет, нажмите Enter.",
        refused,
        {"room": slot.room},
    )
    await step(
        "my_bookings",
        _title(5, "мои брони") + " Откройте страницу со своими бронями и нажмите Enter.",
        lambda: None,
        {},
    )

    def cancelled() -> str | None:
        if recorder.sent or recorder.dialogs:
            return None
        return "Не видно, что отмена отправлена на сайт."

    await step(
        "cancel",
        _title(6, "отмена") + f" Отмените эту бронь (аудитория {slot.room}) на сайте и "
        "нажмите Enter.",
        cancelled,
        {"room": slot.room},
    )
    return Recording(name=name, site=site, steps=tuple(steps))
