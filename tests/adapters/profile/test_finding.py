"""A profile's ``Find`` on a real page in a real Chromium: a list read in the same round
trip that finds it (the first candidate that matches anything is read, a later one when
the first matches nothing), and nothing matching names the profile's line."""

from __future__ import annotations

import pytest

from adapters.profile.errors import ProfileMismatch
from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.parts import Find, Locator
from core.browser import BrowserPool
from tests.adapters.profile.profile_text import FILE, TEXT

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PAGE = "<ul><li class=row>701</li><li class=row>702</li><li class=row>703</li></ul>"
_TEXTS = "(rows, arg) => rows.map((row) => arg.prefix + row.textContent)"


async def _read(pool: BrowserPool, find: Find) -> object:
    finder = Finder(parse_site_profile(TEXT, FILE))
    async with pool.context() as context:
        page = await context.new_page()
        await page.set_content(_PAGE)
        return await finder.read_every(
            page, find, _TEXTS, {"prefix": "#"}, path="book.submit", what="кнопки брони"
        )


async def test_every_match_of_the_first_candidate_that_matches_is_read(pool: BrowserPool) -> None:
    read = await _read(pool, (Locator(css="li.row"), Locator(css="li")))
    assert read == ["#701", "#702", "#703"]


async def test_a_candidate_that_matches_nothing_gives_way_to_the_next(pool: BrowserPool) -> None:
    read = await _read(pool, (Locator(css="tr.booking"), Locator(text="702")))
    assert read == ["#702"]


async def test_nothing_matching_names_the_profile_line(pool: BrowserPool) -> None:
    with pytest.raises(ProfileMismatch) as raised:
        await _read(pool, (Locator(css="tr.booking"), Locator(css="li.gone")))
    assert raised.value.tried == "css=«tr.booking» | css=«li.gone»"
    file, line = raised.value.where.rsplit(":", 1)
    assert file == FILE
    lines = TEXT.splitlines()  # the line of the first candidate tried, under «submit:»
    assert (lines[int(line) - 2].strip(), lines[int(line) - 1].strip()) == (
        "submit:",
        "- role: button",
    )
