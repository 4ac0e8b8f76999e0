"""A drop-down that does not offer the value a step chooses (a time the form does not take:
an MRBS area in periods, whose list has «Period 1…4», asked for 14:00) is the site
looking unlike its profile, said at once with the list and the value — never Playwright's
wait until its timeout, told as «the site does not answer». A value a page's script adds
a moment later (the ends, once the start is chosen) is still chosen. On a small real
page in a real Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import time

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.errors import ProfileMismatch
from adapters.profile.finding import Finder
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Action
from core.browser import BrowserPool
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")

# The end's options come by script, a moment after the page is drawn.
_FORM = """<html><body><form><label>Начало <select id=start>
<option value="p1">Period 1</option><option value="p2">Period 2</option></select></label>
<label>Конец <select id=end></select></label></form><script>
setTimeout(() => { document.getElementById("end").innerHTML =
  '<option value="64800">18:00</option><option value="68400">19:00</option>'; }, 800);
</script></body></html>"""


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async def form(_: web.Request) -> web.Response:
        return web.Response(text=_FORM, content_type="text/html")

    app = web.Application()
    app.router.add_get("/form", form)
    async with served(app) as url:
        yield url


def _action(label: str, value: str) -> Action:
    return Action.model_validate({"find": [{"css": f"select#{label}"}], "select": value})


async def test_a_value_the_list_does_not_offer_is_a_mismatch_said_at_once(
    pool: BrowserPool, site: str
) -> None:
    loaded = parse_site_profile(TEXT, FILE)
    nav = Navigator(loaded, site, Finder(loaded), timeout_ms=30_000)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.goto(page, f"{site}/form")
        # Added by the script after the page: waited for, then chosen.
        assert await nav.act(page, _action("end", "{end|seconds}"), {"end": time(19, 0)}, path="x")
        assert await page.locator("select#end").input_value() == "68400"
        with pytest.raises(ProfileMismatch) as caught:
            await nav.act(
                page, _action("start", "{start|seconds}"), {"start": time(14, 0)}, path="x"
            )
    assert "варианта «50400»" in caught.value.what  # 14:00, as the profile writes it
    assert "x.find" in caught.value.for_admins
