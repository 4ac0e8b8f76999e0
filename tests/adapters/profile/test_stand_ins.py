"""Every Find promotes the candidate that worked, and a missing element whose step has its
own check may be the LLM's pick (issue 65, item 3), on real pages in a real Chromium: a
wait, a message and a list found by a later candidate stand in (promoted when the step
passes, once a session); a wait that nothing answers takes the LLM's pick; what may
rightly be absent (``maybe``) is never picked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from playwright.async_api import Page

from adapters.profile.errors import ProfileMismatch
from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.model import Outcome
from adapters.profile.navigate import Navigator
from adapters.profile.outcome import read_answer
from adapters.profile.parts import Find, Locator
from core.brain.element import ElementWanted
from core.browser import BrowserPool
from tests.adapters.profile.profile_text import FILE, TEXT

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PAGE = (
    "<nav><a href='#'>Мои брони</a></nav><p class=drawn>Брони</p>"
    "<div role=alert class=warn>Аудитория занята</div><ul><li class=row>1</li>"
    "<li class=row>2</li></ul>"
)
_LATER: Find = (Locator(css=".gone"), Locator(css=".drawn"))


class _Picker:
    """The LLM's pick as the ``Finder`` is given it: what it was asked, what it names."""

    def __init__(self, named: Locator | None) -> None:
        self.named = named
        self.asked: list[ElementWanted] = []

    async def __call__(self, _page: Page, wanted: ElementWanted) -> Locator | None:
        self.asked.append(wanted)
        return self.named


@asynccontextmanager
async def _on_page(
    pool: BrowserPool, picker: _Picker | None = None
) -> AsyncIterator[tuple[Page, Navigator]]:
    loaded = parse_site_profile(TEXT, FILE)
    finder = Finder(loaded, pick=picker)
    async with pool.context() as context:
        page = await context.new_page()
        await page.set_content(_PAGE)
        yield page, Navigator(loaded, "http://site.test", finder, timeout_ms=500)


async def test_a_wait_answered_by_a_later_candidate_is_promoted(pool: BrowserPool) -> None:
    async with _on_page(pool) as (page, nav):
        nav.finder.begin_step()
        await nav.wait_for(page, _LATER, path="my_bookings.open.wait")
        assert nav.finder.step_passed().promoted == {"my_bookings.open.wait": 1}


async def test_a_message_read_by_a_later_candidate_is_promoted(pool: BrowserPool) -> None:
    outcome = Outcome(message=(Locator(role="status"), Locator(role="alert")))
    async with _on_page(pool) as (page, nav):
        nav.finder.begin_step()
        answer = await read_answer(page, nav.finder, outcome, 200, path="book.outcome.message")
        assert answer is not None and answer.message == "Аудитория занята"
        assert nav.finder.step_passed().promoted == {"book.outcome.message": 1}


async def test_a_list_found_by_a_later_candidate_is_promoted(pool: BrowserPool) -> None:
    items: Find = (Locator(css="tr.booking"), Locator(css="li.row"))
    async with _on_page(pool) as (page, nav):
        nav.finder.begin_step()
        found = await nav.finder.every_shown(page, items, path="my_bookings.items")
        assert found is not None and await found.count() == 2
        assert nav.finder.step_passed().promoted == {"my_bookings.items": 1}


async def test_a_stand_in_is_promoted_once_a_session_not_back_again(pool: BrowserPool) -> None:
    # The heal wrote the stand-in first in the file: the same index promoted again would
    # move the old first candidate back up.
    async with _on_page(pool) as (page, nav):
        for promoted in ({"my_bookings.open.wait": 1}, {}):
            nav.finder.begin_step()
            await nav.finder.maybe(page, _LATER, path="my_bookings.open.wait")
            assert nav.finder.step_passed().promoted == promoted


async def test_a_wait_nothing_answers_takes_the_llms_pick(pool: BrowserPool) -> None:
    picker = _Picker(Locator(role="link", name="Мои брони"))
    wait: Find = (Locator(role="link", name="Мои заявки"),)
    async with _on_page(pool, picker) as (page, nav):
        nav.finder.begin_step()
        await nav.wait_for(page, wait, path="my_bookings.open.wait", what="списка броней")
        assert [w.path for w in picker.asked] == ["my_bookings.open.wait"]
        assert nav.finder.step_passed().picked == {
            "my_bookings.open.wait": Locator(role="link", name="Мои брони")
        }
        # Remembered: the next wait is answered by the pick, with no question.
        await nav.wait_for(page, wait, path="my_bookings.open.wait")
        assert len(picker.asked) == 1


async def test_a_wait_the_llm_finds_nothing_for_names_the_profile_line(
    pool: BrowserPool,
) -> None:
    picker = _Picker(None)
    async with _on_page(pool, picker) as (page, nav):
        with pytest.raises(ProfileMismatch, match="списка броней"):
            await nav.wait_for(
                page, (Locator(css=".gone"),), path="my_bookings.open.wait", what="списка броней"
            )
        assert len(picker.asked) == 1


async def test_what_may_rightly_be_absent_is_never_picked(pool: BrowserPool) -> None:
    picker = _Picker(Locator(role="link", name="Мои брони"))
    async with _on_page(pool, picker) as (page, nav):
        gone: Find = (Locator(text="Аудитория уже занята"),)
        assert await nav.finder.maybe(page, gone, path="book.taken") is None
        assert picker.asked == []
