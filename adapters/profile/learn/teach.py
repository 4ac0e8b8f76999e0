"""The demonstration, step by step: each step's prompt, what the operator is asked to
name, and the check that the step really happened (a password typed, a booking sent, the
same booking sent again and refused, the cancel sent for this booking and not another,
the window still open); a step that did not is asked again, never skipped.

A ``Lesson`` is shown in three parts an operator can show again on their own: the login,
the day's free rooms, and the booking's life (booked, refused again, found in «my
bookings», cancelled — one part, so a booking made is always cancelled in it).

It talks through two callables, ``say`` (a line out) and ``ask`` (a line in), so a person
at a terminal and a test script drive it alike.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, time
from typing import Literal
from urllib.parse import urljoin, urlsplit

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from adapters.profile.errors import DraftError, LearnStopped
from adapters.profile.finding import candidate
from adapters.profile.learn.daygrid import day_grid
from adapters.profile.learn.examples import pick_list
from adapters.profile.learn.pages import draft_my_bookings, list_press, page_rules
from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Action, Recording, SentRequest, Step, StepName
from adapters.profile.learn.rules import told_rules
from adapters.profile.learn.values import (
    address_number,
    listed_number,
    purpose_typed,
)
from adapters.profile.template import parse_date, parse_time
from core.llm import LLM

__all__ = ["Lesson", "Part", "Slot", "parse_slot", "teach"]

Say = Callable[[str], None]
Ask = Callable[[str], Awaitable[str | None]]  # None: the operator's input ended
Part = Literal["login", "day", "booking"]  # what can be shown again on its own


@dataclass(frozen=True)
class Slot:
    room: str
    start: time
    end: time


# The room is all before the times: a site's room may be named in words («Room N-113»).
_SLOT = re.compile(r"^\s*(\S.*?)\s+(\d{1,2}[:.]\d{2})\s*[-–—]\s*(\d{1,2}[:.]\d{2})\s*$")


def parse_slot(text: str) -> Slot | None:
    """«101 18:00-19:00», «Room N-113 16:00-17:00» → the room and the times (None when it
    is not that)."""
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


def _numbers(requests: tuple[SentRequest, ...]) -> set[str]:
    """The whole numbers the changes sent named (in their addresses or fields)."""
    named: set[str] = set()
    for request in requests:
        named.update(re.findall(r"\d+", urlsplit(request.url).path))
        for value in request.form.values():
            named.update(re.findall(r"^\d+$", value))
    return named


class Lesson:
    """One demonstration in ``context``, its steps kept as shown last."""

    def __init__(
        self,
        name: str,
        site: str,
        context: BrowserContext,
        page: Page,
        *,
        say: Say,
        ask: Ask,
        lists_by_example: bool = False,
        llm: LLM | None = None,
    ) -> None:
        self.name, self.site = name, site
        self._llm = llm  # proposes the rules a page states in words (once)
        self._lists_by_example = lists_by_example  # ask for lists by example, always
        self._context, self._page = context, page
        self._say, self._ask = say, ask
        self._recorder = Recorder(context)
        self._steps: dict[StepName, Step] = {}
        self._booked: str | None = None  # what to tell of a booking made, not yet cancelled

    @property
    def recording(self) -> Recording:
        order: tuple[StepName, ...] = (
            "login", "day", "book", "refused", "my_bookings", "opened", "cancel"
        )  # fmt: skip
        # Masked again as a whole: lists shown by example join a step after it ended.
        return self._recorder.masked(
            Recording(
                name=self.name,
                site=self.site,
                steps=tuple(self._steps[n] for n in order if n in self._steps),
            )
        )

    async def whole(self) -> Recording:
        """Attach to the browser and lead the operator through every step."""
        await self._recorder.attach()
        self._say(
            f"Учимся сайту {self.site} («{self.name}»). Всё делайте в окне браузера; здесь — Enter."
        )
        for part in ("login", "day", "booking"):
            await self.show(part)
        return self.recording

    async def show(self, part: Part) -> None:
        """Show one part (again). Stopped between a booking and its cancel, the operator
        is told which booking is still on the site."""
        try:
            await {"login": self._login, "day": self._day, "booking": self._booking}[part]()
        except LearnStopped:
            if self._booked is not None:
                self._say(self._booked)
            raise

    async def _line(self, prompt: str) -> str:
        answer = await self._ask(prompt)
        if answer is None:
            raise LearnStopped(
                "Показ прерван", hint="запустите clubman learn снова, когда будете готовы"
            )
        return answer.strip()

    async def _window(self) -> bool:
        """False when the operator closed the window: the site is opened again (in a
        window still open, else a new one) and the step is to be shown again. Otherwise
        the learner follows the window the operator last worked in."""
        if not self._page.is_closed():
            # A round trip: a close made by another client (the operator's) is heard by
            # then; a page mid-navigation fails it too, and is still open.
            with contextlib.suppress(PlaywrightError):
                await self._page.evaluate("1")
            if not self._page.is_closed():
                self._page = self._recorder.last_page or self._page
                return True
        still = [p for p in self._context.pages if not p.is_closed()]
        if not still:
            # A window the operator opened just before closing this one may be heard late.
            with contextlib.suppress(PlaywrightError):
                still = [await self._context.wait_for_event("page", timeout=2000)]
        self._page = self._recorder.last_page or (
            still[-1] if still else await self._context.new_page()
        )
        if not self._page.url.startswith("http"):  # a new window, still blank
            await self._page.goto(self.site)
        self._say("Окно браузера закрыто: сайт открыт снова. Повторите шаг.")
        self._recorder.begin()
        return False

    async def _step(
        self,
        name: StepName,
        prompt: str,
        done: Callable[[], str | None],
        answers: dict[str, str],
    ) -> Step:
        """Record one step until ``done`` finds nothing missing (its text: what is)."""
        self._recorder.begin()
        while True:
            await self._line(prompt)
            if not await self._window():
                continue
            missing = done()
            if missing is None:
                step = await self._recorder.end(name, self._page, answers)
                self._steps[name] = step
                return step
            self._say(f"{missing} Повторите шаг.")

    async def _login(self) -> None:
        def typed() -> str | None:
            if any(a.secret for a in self._recorder.actions):
                return None
            return "Не видно, что вы ввели пароль на сайте."

        await self._step(
            "login",
            _title(1, "вход") + " Войдите на сайт своим логином и паролем, затем нажмите Enter.",
            typed,
            {},
        )

    async def _day(self) -> None:
        self._recorder.begin()
        day: date | None = None
        while day is None:
            written = await self._line(
                _title(2, "свободные аудитории") + " Откройте страницу, где видна занятость "
                "аудиторий одного корпуса на один день. Напишите этот день (ДД.ММ.ГГГГ) и Enter."
            )
            if not await self._window():
                continue
            day = parse_date(written, "dmy")
            if day is None:
                self._say("Не понял дату: напишите её как 27.11.2026.")
        step = await self._recorder.end("day", self._page, {"date": day.isoformat()})
        if day_grid(step.snapshot) is None:
            step = await self._timeline(step)
        if not page_rules(step.snapshot):
            # An LLM's reading is offered once; a day shown again is the operator's to say.
            llm, self._llm = self._llm, None
            told = await told_rules(
                step.snapshot, step.url, line=self._line, say=self._say, llm=llm
            )
            step = step.model_copy(update={"answers": step.answers | {"rules": told}})
        self._steps["day"] = step

    async def _timeline(self, step: Step) -> Step:
        """A day drawn without a table (a timeline), shown by example: two rooms' lines,
        two time labels of its axis, and two busy bars (of two kinds, where the day has
        them: another's booking and hours that cannot be booked)."""
        self._say("На странице нет таблицы аудиторий и времени: покажите, как нарисован день.")
        shown = {}
        for name, what, anywhere in (
            ("lines", "строки двух разных аудиторий", False),
            ("axis", "две отметки времени на шкале (например, 08:00 и 10:00)", False),
            ("busy", "две занятые полосы в строках аудиторий (лучше разного вида: чужая "
             "бронь и закрытое время)", True),
        ):  # fmt: skip
            try:
                shown[name], self._page = await pick_list(
                    self._context, what=what, needle="", say=self._say, ask=self._ask,
                    anywhere=anywhere,
                )  # fmt: skip
            except EOFError:
                raise LearnStopped("Показ прерван") from None
        return step.model_copy(update={"lists": shown})

    async def _booking(self) -> None:
        if "day" not in self._steps:
            await self._day()
        day = date.fromisoformat(self._steps["day"].answers["date"])
        slot: Slot | None = None
        while slot is None:
            slot = parse_slot(
                await self._line(
                    _title(3, "бронь") + " Напишите аудиторию и время, которые забронируете "
                    "(например: 101 18:00-19:00), и Enter."
                )
            )
            if slot is None:
                self._say("Не понял: напишите номер аудитории и время, как 101 18:00-19:00.")

        def sent(again: str = "") -> Callable[[], str | None]:
            return lambda: (
                None if self._recorder.sent else f"Не видно, что бронь отправлена на сайт{again}."
            )

        booked = f"аудитории {slot.room} на {day:%d.%m.%Y} {slot.start:%H:%M}–{slot.end:%H:%M}"
        self._booked = f"Если бронь {booked} уже сделана, отмените её на сайте: показ прерван."
        book = await self._step(
            "book",
            f"Забронируйте аудиторию {slot.room} на {day:%d.%m.%Y} с {slot.start:%H:%M} "
            f"до {slot.end:%H:%M} на сайте. Когда бронь сделана, нажмите Enter.",
            sent(),
            {
                "room": slot.room,
                "date": day.isoformat(),
                "start": f"{slot.start:%H:%M}",
                "end": f"{slot.end:%H:%M}",
            },  # fmt: skip
        )
        found = address_number(self.recording)
        number = found[0] if found else None
        which = f"№ {number} {booked}" if number else booked
        self._booked = f"Бронь {which} осталась на сайте: отмените её там."
        await self._step(
            "refused",
            _title(4, "отказ") + f" Забронируйте ту же аудиторию {slot.room} на то же время ещё "
            "раз, чтобы бот увидел, как сайт отказывает. Когда сайт откажет, нажмите Enter.",
            lambda: None if self._reopened(book) else sent(" ещё раз")(),
            {"room": slot.room},
        )
        listed = await self._step(
            "my_bookings",
            _title(5, "мои брони") + " Откройте страницу со своими бронями и нажмите Enter.",
            lambda: None,
            {},
        )
        listed = await self._by_example(listed, book)
        number = number or self._listed_number()
        if found is None:
            self._steps.pop("opened", None)
            await self._opened(number)
        cancel = await self._step(
            "cancel",
            _title(6, "отмена") + f" Отмените эту бронь (аудитория {slot.room}) на сайте и "
            "нажмите Enter.",
            lambda: self._cancelled(number, listed),
            {"room": slot.room},
        )
        self._booked = None
        if found is None and "opened" in self._steps:
            cancel = await self._revisit(cancel, self._steps["opened"].url)
        self._steps["cancel"] = await self._relist(cancel)

    async def _opened(self, number: str | None) -> None:
        """The booking's own page, where no page its form led to was that page: opened by
        the operator from «my bookings» (its fields are read there; the cancel starts
        there)."""

        def shown() -> str | None:
            if number is None or re.search(rf"(?<!\d){number}(?!\d)", self._page.url):
                return None
            return f"Не видно страницы брони № {number}: откройте её из списка."

        await self._step(
            "opened",
            "Откройте страницу этой брони (например, нажмите на неё в списке) и нажмите Enter.",
            shown,
            {},
        )

    async def _relist(self, cancel: Step) -> Step:
        """The cancel step with «my bookings» as it reads once the booking is cancelled,
        where a press posts the list: opened again as the drafted profile will open it
        (what the list says when it has none)."""
        press = list_press(self.recording)
        if press is None:
            return cancel
        seen = await self._seen_afresh(urljoin(self.site, press[0]), press[1])
        if seen is None:
            return cancel
        return self._recorder.masked(cancel.model_copy(update={"relisted": seen}))

    async def _revisit(self, cancel: Step, url: str) -> Step:
        """The cancel step with the booking's own page as it reads once cancelled (a site
        that deletes a booking outright says so only there)."""
        seen = await self._seen_afresh(url)
        if seen is None:
            return cancel
        return self._recorder.masked(cancel.model_copy(update={"revisited": seen}))

    async def _seen_afresh(self, url: str, press: Action | None = None) -> str | None:
        """The page at ``url`` — and the page a ``press`` on it loads, where given — as a
        window of the learner's own shows it (its snapshot); None where it could not be
        seen."""
        page = await self._context.new_page()
        try:
            await page.goto(url)
            if press is not None:
                ways = [candidate(page, way) for way in press.candidates]
                alone = [way for way in ways if await way.count() == 1]
                if not alone:
                    return None
                async with page.expect_navigation():
                    await alone[0].click()
                with contextlib.suppress(PlaywrightError):
                    await page.wait_for_load_state("networkidle", timeout=5000)
            snapshot = await page.locator("body").aria_snapshot(timeout=5000)
        except PlaywrightError:
            return None
        finally:
            await page.close()
        return snapshot

    async def _by_example(self, listed: Step, book: Step) -> Step:
        """«My bookings» as the operator shows it by two examples, when its list is not
        a table the draft can read (or the learner was asked to always ask)."""
        if not self._lists_by_example:
            try:
                draft_my_bookings(self.recording)
                return listed
            except DraftError:
                self._say("В «моих бронях» не видно таблицы с этой бронью.")
        purpose = purpose_typed(book)
        try:
            shown, self._page = await pick_list(
                self._context, what="две брони в списке", needle=purpose, say=self._say,
                ask=self._ask,
            )  # fmt: skip
        except EOFError:
            raise LearnStopped("Показ прерван") from None
        listed = listed.model_copy(update={"lists": {"my_bookings": shown}})
        self._steps["my_bookings"] = listed
        return listed

    def _listed_number(self) -> str | None:
        """The booking's number as «my bookings» links to it (its address named none)."""
        found = listed_number(self.recording)
        return found.number if found else None

    def _reopened(self, book: Step) -> bool:
        """Whether a page the booking's form was reached from (not the form's own page)
        was opened again: a site that refuses a taken slot there (a search finding no
        free room) sends nothing; where the form itself opens again, it must be sent."""
        first = book.requests[0].after if book.requests else len(book.actions)
        pages = [a.url for a in book.actions[:first] if a.kind == "navigate"]
        before = set(pages[:-1]) - set(pages[-1:])
        return any(a.kind == "navigate" and a.url in before for a in self._recorder.actions)

    def _cancelled(self, number: str | None, listed: Step) -> str | None:
        """What is wrong with the cancel shown (None: nothing): it must be sent (or
        confirmed), and not name another booking «my bookings» showed instead of ours."""
        sent = self._recorder.sent
        if not sent and not self._recorder.dialogs:
            return "Не видно, что отмена отправлена на сайт."
        named = _numbers(sent)
        shown = set(re.findall(r"\d+", listed.snapshot))
        if number is not None and number not in named and named & shown:
            other = ", ".join(sorted(named & shown))
            return (
                f"Похоже, отменена другая бронь (№ {other}), а бронь № {number} осталась на "
                "сайте. Отмените её."
            )
        return None


async def teach(
    name: str, site: str, context: BrowserContext, page: Page, *, say: Say, ask: Ask
) -> Recording:
    """Lead the operator through logging in, a day's free rooms, a booking, the site's
    refusal of the same booking again, «my bookings» and cancelling it; return what was
    recorded."""
    return await Lesson(name, site, context, page, say=say, ask=ask).whole()
