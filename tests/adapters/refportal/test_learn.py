"""``clubman learn`` on the reference portal, the operator played by this test over CDP:
a real Chromium run with ``--remote-debugging-port``, the real ``clubman learn`` process
attached to it and answering on stdin/stdout, the test driving the same window as a
person would. The recording holds each step's fields, clicks (with locator candidates
that find the element again) and the changes sent — and no password, cookie or token."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import time
from pathlib import Path

import pytest
import pytest_asyncio
import yaml
from playwright.async_api import Browser, Page, async_playwright

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.check import CHECK_MARK
from adapters.profile.finding import candidate
from adapters.profile.learn import Recording
from adapters.profile.learn.draft import (
    DraftError,
    draft_book,
    draft_booking_page,
    draft_cancel,
    draft_login,
    draft_my_bookings,
    draft_parts,
    draft_profile,
)
from core.browser import BrowserPool
from core.site.models import Room
from portal.server import RunningPortal
from tests.adapters.contract import HiddenOutcomeContract
from tests.adapters.refportal.harness import RefPortalHarness
from tests.adapters.refportal.helpers import FAST, FRIDAY, TODAY, active_bookings, reset
from tests.support.learning import (
    CHROMIUM,
    Demonstration,
    Learner,
    operators_chromium,
    play,
    run_learn,
)
from tests.support.learning_refportal import demonstrate_refportal

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]  # tests/conftest.py

PASSWORD = "club-demo"
PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"
PARTS = ("login", "catalogue", "rules", "availability", "book", "booking_page", "my_bookings",
         "cancel")  # fmt: skip


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def chromium() -> AsyncIterator[str]:
    async with operators_chromium() as endpoint:
        yield endpoint


async def _free_rooms(portal: RunningPortal) -> list[str]:
    """The main-building rooms free on Friday 18:00–19:00."""
    taken = {
        b["room_number"]
        for b in await active_bookings(portal.url, date=FRIDAY.isoformat())
        if b["start"] < "19:00" and b["end"] > "18:00"
    }
    return [str(n) for n in range(201, 211) if str(n) not in taken]


async def demonstrate(portal: RunningPortal, chromium: str, work: Path) -> Demonstration:
    """Play the operator through ``clubman learn`` on the reference portal, with steps
    done wrong: Enter before logging in, a date not understood, the window closed, another
    booking cancelled first; then the learner checks the draft — with a mistyped password
    first, the login shown again, and the right one."""
    room, other = (await _free_rooms(portal))[:2]

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")  # attached: the site is open
        await page.wait_for_url(re.compile(re.escape(portal.url)))
        await page.goto(f"{portal.url}/login")
        await learner.answer()  # Enter too early: nothing typed yet
        assert "Не видно, что вы ввели пароль" in await learner.prompt("Не видно")
        await learner.prompt("Шаг 1 из 6")
        await _log_in(page)
        await learner.answer()

        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{portal.url}/rooms?building=main&date={FRIDAY.isoformat()}")
        await learner.answer("не дата")
        await learner.prompt("Не понял дату")
        await learner.prompt("Шаг 2 из 6")
        await learner.answer(f"{FRIDAY:%d.%m.%Y}")

        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{room} 18:00-19:00")
        await learner.prompt(f"Забронируйте аудиторию {room}")
        await _book(page, portal, room)
        await page.wait_for_url(re.compile(r"/booking/\d+$"))
        await learner.answer()

        await learner.prompt("Шаг 4 из 6")
        await _book(page, portal, room)  # the same form again: the site refuses the slot
        await page.get_by_role("alert").wait_for()
        await learner.answer()

        await learner.prompt("Шаг 5 из 6")
        await browser.contexts[0].new_page()  # another tab keeps the login
        await page.close()  # the operator closes the window mid-step
        await learner.answer()
        await learner.prompt("Окно браузера закрыто: сайт открыт снова. Повторите шаг.")
        await learner.prompt("Шаг 5 из 6")
        # The operator goes on in yet another window, not the one the learner went to:
        # the learner follows the window they work in.
        page = await browser.contexts[0].new_page()
        await _book(page, portal, other, purpose="Другое")  # another booking of the club's
        # Its answer awaited, as a person would: a list opened while the form is still being
        # sent may be the page before the booking, or be replaced by the booking's page.
        await page.wait_for_url(re.compile(r"/booking/\d+$"))
        await page.goto(f"{portal.url}/my")
        await learner.answer()
        # Asked for the list by two examples: one is not enough, another is asked for.
        await learner.prompt("Покажите список примерами")
        await page.get_by_role("row").filter(has_text="Другое").get_by_role("cell").nth(1).click()
        await learner.answer()
        assert "сделайте на сайте ещё один" in await learner.prompt("Вижу один пример")
        # Then two bookings clicked (the clicks go nowhere).
        await learner.prompt("Покажите список примерами")
        await page.get_by_role("row").filter(has_text="Другое").get_by_role("cell").nth(1).click()
        await page.get_by_role("row").filter(has_text="Шахматы").get_by_role("cell").nth(2).click()
        assert page.url.endswith("/my")
        await learner.answer()
        rows = await page.get_by_role("row").count() - 1  # below the titles
        assert (await learner.prompt("Нашёл")).startswith(f"Нашёл {rows} (подсвечены)")
        await learner.answer()

        await learner.prompt("Шаг 6 из 6")
        await _cancel(page, "Другое")  # the wrong one
        await learner.answer()
        said = await learner.prompt("Похоже, отменена другая бронь")
        assert re.search(r"бронь № \d+ осталась на сайте", said), said
        await learner.prompt("Шаг 6 из 6")
        await _cancel(page, "Шахматы")
        await learner.answer()

        await learner.prompt("Проверим профиль на сайте как club")
        await learner.answer("not-the-password")
        await learner.prompt("✗ вход")
        assert "Похоже, нужна 1" in await learner.prompt("Показать часть снова?")
        await learner.answer("1")
        await learner.prompt("Шаг 1 из 6")
        await page.goto(f"{portal.url}/logout")
        await _log_in(page)
        await learner.answer()
        await learner.prompt("Проверим профиль на сайте как club")
        await learner.answer(PASSWORD)
        await learner.prompt("итог: профиль подходит")

    return await run_learn(
        portal.url, chromium, work, name="ref", room=room, operator=operator,
        args=("--lists-by-example",), today=TODAY,
    )  # fmt: skip


async def _book(page: Page, portal: RunningPortal, room: str, purpose: str = "Шахматы") -> None:
    await page.goto(
        f"{portal.url}/book?room=main-{room}&date={FRIDAY.isoformat()}&start=18:00&end=18:30"
    )
    await page.get_by_label("Окончание").select_option("19:00")
    await page.get_by_label("Цель бронирования").fill(purpose)
    await page.get_by_role("button", name="Забронировать").click()


async def _log_in(page: Page) -> None:
    await page.get_by_label("Имя пользователя").fill("club")
    await page.get_by_label("Пароль").fill(PASSWORD)
    await page.get_by_role("button", name="Войти").click()
    await page.wait_for_url(lambda url: "/login" not in url)


async def _cancel(page: Page, purpose: str) -> None:
    page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    row = page.get_by_role("row").filter(has_text=purpose)
    await row.get_by_role("button", name="Отменить").click()
    await page.wait_for_load_state()


async def test_a_demonstration_over_cdp_is_recorded_without_secrets(
    fresh_portal: RunningPortal, chromium: str, tmp_path: Path
) -> None:
    shown = await demonstrate(fresh_portal, chromium, tmp_path)
    recording, room, cookies = shown.recording, shown.room, shown.cookies
    assert await active_bookings(fresh_portal.url, purpose="Шахматы") == []  # cancelled
    assert await active_bookings(fresh_portal.url, purpose="Другое") == []  # by mistake
    checks = [b for b in await active_bookings(fresh_portal.url) if CHECK_MARK in b["purpose"]]
    assert checks == []  # the check's own booking, cancelled
    assert "✓ бронь" in "\n".join(shown.said)  # checked on the site: booked and cancelled
    assert [s.name for s in recording.steps] == [
        "login", "day", "book", "refused", "my_bookings", "cancel"
    ]  # fmt: skip

    login = recording.steps[0]
    fills = [a for a in login.actions if a.kind == "fill"]
    assert [(a.value, a.secret) for a in fills] == [("club", False), (None, True)]
    assert fills[0].candidates[0].label == "Имя пользователя" or any(
        c.label == "Имя пользователя" for c in fills[0].candidates
    )
    clicks = [a for a in login.actions if a.kind == "click"]
    assert clicks and clicks[-1].candidates[0].role == "button"
    assert clicks[-1].candidates[0].name == "Войти"
    assert [r.method for r in login.requests] == ["POST"]
    assert "***" in login.requests[0].form.values()  # the password field, hidden

    assert recording.steps[1].answers == {"date": FRIDAY.isoformat()}
    book = recording.steps[2]
    assert book.answers == {"room": room, "date": FRIDAY.isoformat(), "start": "18:00",
                            "end": "19:00"}  # fmt: skip
    sent = [r for r in book.requests if r.method == "POST"]
    assert len(sent) == 1 and sent[0].url.endswith("/book")
    assert sent[0].form["purpose"] == "Шахматы" and sent[0].form["end"] == "19:00"
    assert "Забронировать" in book.snapshot or "Бронь" in book.snapshot
    cancel = recording.steps[5]
    assert cancel.requests and cancel.requests[0].method == "POST"

    # Every recorded click's first candidate finds its element again on the live site.
    async with async_playwright() as playwright:
        again = await playwright.chromium.launch(executable_path=CHROMIUM)
        page = await again.new_page()
        await page.goto(f"{fresh_portal.url}/login")
        assert await candidate(page, clicks[-1].candidates[0]).count() == 1
        assert await candidate(page, fills[1].candidates[0]).count() == 1
        await again.close()

    # The demonstration drafts the profile's «login», «book», «booking_page», «my
    # bookings» and «cancel» parts; in the reference profile's place, they log in afresh
    # and book another room on the live site (read back from its page), found in «my
    # bookings» and cancelled.
    assert draft_login(recording) == {
        "open": {"url": "/login"},
        "username": [{"role": "textbox", "name": "Имя пользователя"},
                     {"label": "Имя пользователя"}, {"css": "#username"}],
        "password": [{"role": "textbox", "name": "Пароль"}, {"label": "Пароль"},
                     {"css": "#password"}],
        "submit": draft_login(recording)["submit"],
        "page": "^/login",
        "failure": draft_login(recording)["failure"],
    }  # fmt: skip
    assert draft_login(recording)["submit"][0] == {"role": "button", "name": "Войти"}
    assert draft_cancel(recording) == {
        "control": draft_cancel(recording)["control"],
        "confirm": "native",
    }
    assert draft_cancel(recording)["control"][0] == {"role": "button", "name": "Отменить"}
    drafted = draft_book(recording)
    assert drafted["fields"][-1:] == [
        {"find": [{"role": "textbox", "name": "Цель бронирования"},
                  {"label": "Цель бронирования"}, {"css": "#purpose"}], "fill": "{purpose}"},
    ]  # fmt: skip
    # The number of people, left empty as the form opened: the site's own, not drafted.
    assert "#attendees" not in str(drafted["fields"])
    assert drafted["booked"] == r"^/booking/(\d+)$"
    reference = yaml.safe_load(PROFILE.read_text(encoding="utf-8"))
    # «My bookings» shown by two examples: its rows, each field a cell inside (replayed
    # on the live site below).
    listed = draft_my_bookings(recording)
    assert listed["items"] == [{"css": "tbody > tr"}] and "table" not in listed
    assert set(listed) == {"open", "items", "number", "building", "room", "date", "time",
                           "purpose"}  # fmt: skip
    assert listed["date"]["format"] == "dmy" and listed["time"]["format"] == "span"
    assert draft_booking_page(recording) == {
        "url": "/booking/{number}",
        "building": {"term": "Корпус"},
        "room": {"term": "Аудитория"},
        "date": {"term": "Дата", "format": "dmy"},
        "time": {"term": "Время", "format": "span"},
        "purpose": {"term": "Цель"},
    }
    written = (tmp_path / "out" / "ref.yaml").read_text(encoding="utf-8")
    assert written == draft_profile(recording)  # what clubman learn wrote beside it
    parts = {
        "login": draft_login(recording),
        "book": drafted,
        "booking_page": draft_booking_page(recording),
        "my_bookings": draft_my_bookings(recording),
        "cancel": draft_cancel(recording),
    }
    assert {k: v for k, v in yaml.safe_load(written).items() if k in parts} == parts
    reference |= parts
    loaded = parse_site_profile(yaml.safe_dump(reference, allow_unicode=True), "drafted.yaml")
    other = next(n for n in range(201, 211) if str(n) != room)
    async with BrowserPool(max_contexts=1) as pool, pool.context() as context:
        session = ProfileSystem(fresh_portal.url, loaded).open_session(
            context, username="club", password=PASSWORD
        )
        made = await session.book(
            room=Room(id=f"main-{other}", building="main", number=str(other), floor=2),
            day=FRIDAY, start=time(10, 0), end=time(11, 0), purpose="learned #l1",
        )  # fmt: skip
        assert (made.room, made.day, made.start, made.end) == (
            str(other),
            FRIDAY,
            time(10, 0),
            time(11, 0),
        )
        assert [b["id"] for b in await active_bookings(fresh_portal.url, purpose="learned #l1")]
        assert session.logins == 1  # by the drafted login part, in a fresh browser
        mine = [b for b in await session.my_bookings() if b.number == made.number]
        assert [(b.building, b.room, b.purpose) for b in mine] == [
            ("main", str(other), "learned #l1")
        ]
        await session.cancel(made.number)
        await session.close()
    assert await active_bookings(fresh_portal.url, purpose="learned #l1") == []

    # A demonstration without the refusal drafts every part but «book», and says why.
    partial = recording.model_copy(
        update={"steps": tuple(s for s in recording.steps if s.name != "refused")}
    )
    with pytest.raises(DraftError, match="как сайт отказывает"):
        draft_profile(partial)
    notes = draft_parts(partial)
    assert "# book: не составлен — Не видно, как сайт отказывает" in notes
    assert set(yaml.safe_load(notes)) == {"name", *PARTS} - {"book"}

    # No secret in anything the learner wrote.
    text = "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").iterdir())
    assert PASSWORD not in text
    assert cookies and all(len(value) >= 8 for value in cookies)  # the session's, at least
    assert not [value for value in cookies if value in text]
    tokens = {
        key: value
        for step in recording.steps
        for request in step.requests
        for key, value in request.form.items()
        if re.search("csrf|token", key, re.IGNORECASE)
    }
    assert tokens and set(tokens.values()) == {"***"}  # the forms' tokens, hidden


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def learned(
    portal: RunningPortal, chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """The whole profile drafted from one demonstration, with no edit by hand."""
    await reset(portal.url)
    work = tmp_path_factory.mktemp("learned")
    room = (await _free_rooms(portal))[0]
    shown = await demonstrate_refportal(
        portal.url, chromium, work, room=room, day=FRIDAY, today=TODAY
    )
    return draft_profile(shown.recording)


class TestLearnedProfileContract(HiddenOutcomeContract):
    """The contract suite, unchanged, on the profile ``clubman learn`` drafted from the
    demonstration alone (no LLM: none is configured)."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(
        self, learned: str, fresh_portal: RunningPortal, pool: BrowserPool
    ) -> RefPortalHarness:
        harness = RefPortalHarness(fresh_portal, pool)
        loaded = parse_site_profile(learned, "learned.yaml")
        harness.system = ProfileSystem(fresh_portal.url, loaded, retry=FAST)
        return harness


async def test_an_operator_who_stops_after_booking_is_told_the_booking_left(
    fresh_portal: RunningPortal, chromium: str, tmp_path: Path
) -> None:
    room = (await _free_rooms(fresh_portal))[0]

    async def operator(learner: Learner, browser: Browser, page: Page) -> None:
        await learner.prompt("Шаг 1 из 6")
        await page.wait_for_url(re.compile(re.escape(fresh_portal.url)))
        await page.goto(f"{fresh_portal.url}/logout")  # logged in by the test before
        await page.goto(f"{fresh_portal.url}/login")
        await _log_in(page)
        await learner.answer()
        await learner.prompt("Шаг 2 из 6")
        await page.goto(f"{fresh_portal.url}/rooms?building=main&date={FRIDAY.isoformat()}")
        await learner.answer(f"{FRIDAY:%d.%m.%Y}")
        await learner.prompt("Шаг 3 из 6")
        await learner.answer(f"{room} 18:00-19:00")
        await learner.prompt(f"Забронируйте аудиторию {room}")
        await _book(page, fresh_portal, room)
        await page.wait_for_url(re.compile(r"/booking/\d+$"))
        await learner.answer()
        await learner.prompt("Шаг 4 из 6")
        assert learner.proc.stdin is not None
        learner.proc.stdin.close()  # the operator stops here

    status, learner, _ = await play(
        fresh_portal.url, chromium, tmp_path, name="stopped", operator=operator
    )
    [made] = await active_bookings(fresh_portal.url, purpose="Шахматы")
    assert status != 0
    told = f"Бронь № {made['id']} аудитории {room} на {FRIDAY:%d.%m.%Y} 18:00–19:00 осталась"
    assert any(line.startswith(told) for line in learner.said), "\n".join(learner.said)
    # What was shown is kept: the steps so far, and the parts they draft, with a note on
    # each part still missing saying what to show.
    kept = Recording.model_validate_json(
        (tmp_path / "out" / "stopped.recording.json").read_text(encoding="utf-8")
    )
    assert [s.name for s in kept.steps] == ["login", "day", "book"]
    parts = (tmp_path / "out" / "stopped.parts.yaml").read_text(encoding="utf-8")
    drafted = yaml.safe_load(parts)
    assert {"login", "availability", "rules"} <= drafted.keys()
    assert "# my_bookings: не составлен — «Мои брони» не показаны" in parts
