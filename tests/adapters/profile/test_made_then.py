"""A booking answered in the page, then led to its address by ``book.made_then`` with the
booking's own values (MRBS: no address carries the new booking's number, the operator
finds it by what was sent), on a small real site in a real Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web

from adapters.profile.errors import ProfileMismatch
from adapters.profile.finding import Finder
from adapters.profile.form import send_form
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool
from core.site import OutcomeUnknown
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PURPOSE = "Клуб шахмат"
# The form is sent by its script and answered in place; the answer offers a search of
# one's bookings, which loads a page that offers the booking found (a second page load).
_FORM = """<html><body><form id=f><label>Цель <input id=p name=purpose></label>
<button>Отправить</button></form><div id=answer></div><script>
document.getElementById("f").addEventListener("submit", async (e) => {
  e.preventDefault();
  await fetch("/book", {method: "POST", body: document.getElementById("p").value});
  document.getElementById("answer").innerHTML = '<p>Бронь создана</p>'
    + '<label>Найти бронь <input id=q></label><button id=go type=button>Найти</button>';
  document.getElementById("go").onclick = () => {
    location.href = "/find?q=" + encodeURIComponent(document.getElementById("q").value);
  };
});
</script></body></html>"""
_MADE = """book:
  open:
    url: /form
  form:
    - css: form#f
  fields:
    - find: [{label: Цель}]
      fill: "{purpose}"
  submit:
    - role: button
      name: Отправить
  booked: ^/booking/(\\d+)$
  made:
    - text: Бронь создана
  made_then:
    - find: [{label: Найти бронь}]
      fill: "{purpose}"
    - find: [{role: button, name: Найти}]
      click: true
    - find: [{role: link, name: Открыть бронь}]
      click: true
"""


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    booked: list[str] = []

    async def form(_: web.Request) -> web.Response:
        return web.Response(text=_FORM, content_type="text/html")

    async def book(request: web.Request) -> web.Response:
        booked.append(await request.text())
        return web.json_response({})

    async def find(request: web.Request) -> web.Response:
        found = [n for n, purpose in enumerate(booked, 40) if purpose == request.query["q"]]
        links = "".join(f'<a href="/booking/{n}">Открыть бронь</a>' for n in found)
        return web.Response(text=f"<html><body>{links or 'Ничего'}</body></html>",
                            content_type="text/html")  # fmt: skip

    async def booking(request: web.Request) -> web.Response:
        text = f"<html><body>Бронь № {request.match_info['number']}</body></html>"
        return web.Response(text=text, content_type="text/html")

    app = web.Application()
    app.router.add_get("/form", form)
    app.router.add_post("/book", book)
    app.router.add_get("/find", find)
    app.router.add_get("/booking/{number}", booking)
    async with served(app) as url:
        yield url


def _navigator(url: str) -> Navigator:
    start = TEXT.index("\nbook:\n") + 1
    text = TEXT[:start] + _MADE + TEXT[TEXT.index("  outcome:", start) :]
    loaded = parse_site_profile(text, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=10_000)


async def test_made_then_fills_the_bookings_own_values_and_waits_for_each_page(
    pool: BrowserPool, site: str
) -> None:
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.goto(page, f"{site}/form")
        await page.get_by_label("Цель").fill(_PURPOSE)
        submit = page.get_by_role("button", name="Отправить")
        number = await send_form(nav, page, submit, {"purpose": _PURPOSE})
    assert number == "40"


async def test_a_made_then_element_gone_is_the_number_unread_never_a_resend(
    pool: BrowserPool, site: str
) -> None:
    """The search finds nothing (another purpose typed): the link to open is not there. The
    booking is made all the same: its number is unread (looked for in «my bookings» by the
    session), not «the site changed» that would hide it, and the element is called a link."""
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        await nav.goto(page, f"{site}/form")
        await page.get_by_label("Цель").fill(_PURPOSE)
        submit = page.get_by_role("button", name="Отправить")
        with pytest.raises(OutcomeUnknown) as caught:
            await send_form(nav, page, submit, {"purpose": "Другая цель"})
    missing = caught.value.__cause__
    assert isinstance(missing, ProfileMismatch)
    assert "ссылки «Открыть бронь»" in missing.what  # a link, by its words
