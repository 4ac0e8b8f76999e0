"""Opening a page its scripts draw (``Navigator.open`` with ``wait``), on a small real
site in a real Chromium: a page opened to act on is acted on as soon as its first
action's element shows, while the page still fetches; «nothing found» shown before the
data came is never what the page is taken to show."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.model import Open
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Find, Locator
from core.browser import BrowserPool
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")

# The page shows «nothing found» until its search answers, then the room's card; a press
# on the card's button is told to the site.
_SEARCH = """<html><body><p id=shown>No spaces are available</p><script>
fetch("/search").then((r) => r.json()).then(() => {
  document.getElementById("shown").innerHTML = '<button class=book>Book</button>';
  document.querySelector("button.book").onclick = () => fetch("/pressed");
});
</script></body></html>"""
# The card at once, while another fetch of the page's is under way: it is answered only
# once the card was pressed (else it fails: the page's data did not load).
_BUSY = """<html><body><button class=book>Book</button><script>
document.querySelector("button.book").onclick = () => fetch("/pressed");
fetch("/after-press");
</script></body></html>"""


class _Site:
    def __init__(self) -> None:
        self.pressed = asyncio.Event()
        self.url = ""


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[_Site]:
    state = _Site()

    def html(text: str) -> web.Response:
        return web.Response(text=text, content_type="text/html")

    async def search_page(_: web.Request) -> web.Response:
        return html(_SEARCH)

    async def busy_page(_: web.Request) -> web.Response:
        return html(_BUSY)

    async def search(_: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.json_response({})

    async def pressed(_: web.Request) -> web.Response:
        state.pressed.set()
        return web.json_response({})

    async def after_press(_: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(state.pressed.wait(), timeout=5)
        except TimeoutError:
            return web.json_response({}, status=502)
        return web.json_response({})

    app = web.Application()
    for path, handler in (
        ("/search-page", search_page), ("/busy-page", busy_page), ("/search", search),
        ("/pressed", pressed), ("/after-press", after_press),
    ):  # fmt: skip
        app.router.add_get(path, handler)
    async with served(app) as url:
        state.url = url
        yield state


def _navigator(url: str) -> Navigator:
    loaded = parse_site_profile(TEXT, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=10_000)


_CARD: Find = (Locator(css="button.book"),)


def _opening(path: str, button: Find = _CARD) -> Open:
    return Open.model_validate(
        {
            "url": path,
            "wait": [{"css": "button.book"}, {"text": "No spaces are available"}],
            "actions": [
                {"find": [way.model_dump(exclude_none=True) for way in button], "click": True}
            ],
        }
    )


async def test_a_page_opened_to_act_on_is_acted_on_while_it_still_fetches(
    pool: BrowserPool, site: _Site
) -> None:
    """The page's other fetch is answered only after the press (else with a 502): had
    the page been settled first, its data would have failed to load."""
    site.pressed.clear()
    nav = _navigator(site.url)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.open(page, _opening("/busy-page"), {}, path="book.open")
        await asyncio.wait_for(site.pressed.wait(), timeout=5)
        await nav.settle(page)  # its fetch then answered: no failure to report


async def test_an_element_found_by_a_later_candidate_as_the_page_shows_it_is_a_heal(
    pool: BrowserPool, site: _Site
) -> None:
    """The action's first candidate finds nothing; the one after it finds the card as
    it shows, which is pressed, and is what the step, once passed, promotes."""
    site.pressed.clear()
    nav = _navigator(site.url)
    button: Find = (Locator(css="button.gone"), Locator(css="button.book"))
    async with pool.context() as context:
        page = await context.new_page()
        await nav.open(page, _opening("/busy-page", button), {}, path="book.open")
        await asyncio.wait_for(site.pressed.wait(), timeout=5)
    assert nav.finder.step_passed().promoted == {"book.open.actions.0.find": 1}


@pytest.mark.parametrize("known", [False, True], ids=["first-use", "card-known"])
async def test_nothing_found_before_the_data_came_is_not_what_the_page_shows(
    pool: BrowserPool, site: _Site, known: bool
) -> None:
    """«No spaces are available» shows first: the page is settled before it is looked
    at (``shown``), and then shows the card, which is pressed. Also when the session
    has pressed that card before (what it found then is looked for again, not assumed)."""
    nav = _navigator(site.url)
    opening = _opening("/search-page")
    taken: Find = (Locator(text="No spaces are available"),)
    seen: list[bool] = []
    async with pool.context() as context:
        page = await context.new_page()
        if known:  # the same Open, on a page that shows the card at once
            busy = opening.model_copy(update={"url": _opening("/busy-page").url})
            await nav.open(page, busy, {}, path="book.open")
            await asyncio.wait_for(site.pressed.wait(), timeout=5)
        site.pressed.clear()

        async def shown() -> None:
            seen.append(await nav.finder.maybe(page, taken, path="book.taken") is not None)

        await nav.open(page, opening, {}, path="book.open", shown=shown)
        await asyncio.wait_for(site.pressed.wait(), timeout=5)
    assert seen == [False]
