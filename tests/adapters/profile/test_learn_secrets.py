"""``clubman learn`` keeps no secret typed, wherever the site puts it (issue 65): a login
page whose script copies the password, as it is typed, into a visible text field; the
operator typing it again into a plain field; the site answering with it in the next
page's address, in its text and in a field, and its scripts sending it in a form's body
and a JSON body. The recorder watches a real Chromium on a small site served here."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from html import escape
from urllib.parse import quote, quote_plus, urlencode

import pytest
import pytest_asyncio
from aiohttp import web
from playwright.async_api import Page

from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Recording, Step
from adapters.profile.learn.secrets import Secrets
from core.browser import BrowserPool
from tests.adapters.profile.served import served

# A «#», a space, a «/» and a Cyrillic letter: each is written another way in an address.
PASSWORD = "Kl7#mQ p9/xЖ"

_LOGIN = """<!doctype html><html><body><h1>Вход</h1>
<form method="post" action="/login">
  <label>Логин <input name="user"></label>
  <label>Пароль <input type="password" name="pw" id="pw"></label>
  <label>Так вы ввели <input name="shown" id="shown"></label>
  <label>Ещё раз <input name="again"></label>
  <button>Войти</button>
</form>
<script>
  // The site's «show what I typed»: the password, copied into a visible text field.
  document.getElementById("pw").addEventListener("input",
    (e) => { document.getElementById("shown").value = e.target.value; });
</script></body></html>"""

# A password in a field of type «text» (named as one), and a search box whose name reads
# like a secret («keyword»): its «201» must not hide every 201 on the page.
_PLAIN = """<!doctype html><html><body><form method="post" action="/plain">
  <label>Код доступа <input name="pin"></label>
  <label>Пароль сотрудника <input name="staff_password"></label>
  <label>Поиск <input name="keyword"></label>
  <button>Найти</button>
</form></body></html>"""


def _home(password: str) -> str:
    said = escape(password)
    return f"""<!doctype html><html><body><h1>Добро пожаловать</h1>
<p>Ваш пароль: {said}</p>
<label>Пароль <input id="kept" value="{said}"></label>
<button id="save">Сохранить</button>
<script>
  document.getElementById("save").addEventListener("click", async () => {{
    const pw = document.getElementById("kept").value;
    await fetch("/note", {{method: "POST", body: new URLSearchParams({{note: pw, n: "1"}})}});
    await fetch("/note", {{method: "POST", headers: {{"content-type": "application/json"}},
                           body: JSON.stringify({{[pw]: pw}})}});
    document.body.insertAdjacentHTML("beforeend", "<p id=done>Сохранено</p>");
  }});
</script></body></html>"""


def _site() -> web.Application:
    async def login_page(_: web.Request) -> web.Response:
        return web.Response(text=_LOGIN, content_type="text/html")

    async def login(request: web.Request) -> web.Response:
        form = await request.post()
        raise web.HTTPFound("/home?" + urlencode({"seen": str(form["pw"])}, safe="/:"))

    async def home(request: web.Request) -> web.Response:
        return web.Response(text=_home(request.query["seen"]), content_type="text/html")

    async def note(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def plain_page(_: web.Request) -> web.Response:
        return web.Response(text=_PLAIN, content_type="text/html")

    async def found(request: web.Request) -> web.Response:
        form = await request.post()
        shown = f"<p>Искали: {escape(str(form['keyword']))}; код: {escape(str(form['pin']))}</p>"
        return web.Response(text=f"<!doctype html><body>{shown}</body>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/plain", plain_page)
    app.router.add_post("/plain", found)
    app.router.add_get("/login", login_page)
    app.router.add_post("/login", login)
    app.router.add_get("/home", home)
    app.router.add_post("/note", note)
    return app


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async with served(_site()) as url:
        yield url


async def _type(page: Page, label: str, text: str) -> None:
    """Typed as a person types, then left (Tab): the page hears «input» and «change»."""
    field = page.get_by_label(label, exact=True)
    await field.click()
    await field.press_sequentially(text)
    await field.press("Tab")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_password_the_page_copies_into_a_visible_field_is_masked_everywhere(
    site: str, pool: BrowserPool
) -> None:
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        await page.goto(f"{site}/login")
        recorder.begin()
        await _type(page, "Логин", "club")
        await _type(page, "Пароль", PASSWORD)
        await _type(page, "Ещё раз", PASSWORD)  # a plain field: not a secret by its type
        assert await page.get_by_label("Так вы ввели").input_value() == PASSWORD
        await page.get_by_role("button", name="Войти").click()
        await page.wait_for_url(lambda url: "/home?" in url)
        await page.get_by_role("button", name="Сохранить").click()
        await page.locator("#done").wait_for()
        step = await recorder.end("login", page, {})
        recording = recorder.masked(Recording(name="t", site=site, steps=(step,)))

    # Each place the site put it was recorded, and shows «***» there.
    again = next(a for a in step.actions if a.kind == "fill" and a.value == "***")
    assert not again.secret  # a plain field, masked by its value
    assert any(a.secret and a.value is None for a in step.actions)  # the password field
    (form,) = step.forms
    assert {f.name: f.value for f in form.fields} == {
        "user": "club", "pw": None, "shown": "***", "again": "***"
    }  # fmt: skip
    login = next(r for r in step.requests if r.url == f"{site}/login")
    assert login.form == {"user": "club", "pw": "***", "shown": "***", "again": "***"}
    noted = [r for r in step.requests if r.url == f"{site}/note"]
    assert [r.form for r in noted] == [{"note": "***", "n": "1"}, {}]
    assert noted[1].json_keys == ("***",)
    assert step.url == f"{site}/home?seen=***"
    assert f"{site}/home?seen=***" in [a.url for a in step.actions if a.kind == "navigate"]
    assert "Ваш пароль: ***" in step.snapshot
    assert 'textbox "Пароль": "***"' in step.snapshot or 'textbox "Пароль": ***' in step.snapshot
    assert "club" in step.snapshot or login.form["user"] == "club"  # the rest is kept

    # And nowhere, in any writing, is the password itself.
    writings = {PASSWORD, quote(PASSWORD), quote(PASSWORD, safe=""), quote_plus(PASSWORD),
                quote_plus(PASSWORD, safe="/:"), json.dumps(PASSWORD)[1:-1]}  # fmt: skip
    for text in (step.model_dump_json(), recording.model_dump_json()):
        assert [w for w in writings if w in text] == [], text


def test_a_secret_is_found_however_each_of_its_characters_is_written() -> None:
    secrets = Secrets()
    secrets.add(PASSWORD)
    secrets.add("")  # an empty value hides nothing
    for written in (
        PASSWORD,
        "Kl7%23mQ%20p9/x%D0%96",  # a browser's address
        "Kl7%23mQ+p9/x%d0%96",  # urlencode(safe="/"), lower-case hex
        json.dumps(PASSWORD)[1:-1],  # «\u0416»
    ):
        assert secrets.mask(f"a={written}&b=1") == "a=***&b=1"
    assert secrets.mask("Kl7#mQ p9") == "Kl7#mQ p9"  # a part of it is not it
    assert PASSWORD not in repr(secrets)
    step = Step(name="login", snapshot=f"- text: {PASSWORD}", answers={PASSWORD: "x"})
    assert secrets.masked(step) == Step(name="login", snapshot="- text: ***", answers={"***": "x"})


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_password_in_a_text_field_named_as_one_is_masked_and_a_search_is_kept(
    site: str, pool: BrowserPool
) -> None:
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        await page.goto(f"{site}/plain")
        recorder.begin()
        await _type(page, "Код доступа", "201")
        await _type(page, "Пароль сотрудника", "201")  # the same as the access code
        await _type(page, "Поиск", "201")
        await page.get_by_role("button", name="Найти").click()
        await page.get_by_text("Искали").wait_for()
        step = await recorder.end("login", page, {})
    sent = next(r for r in step.requests if r.method == "POST")
    assert sent.form == {"pin": "***", "staff_password": "***", "keyword": "***"}
    assert "Искали: ***; код: ***" in step.snapshot  # the password's value, wherever it is


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_value_typed_into_a_field_named_like_a_secret_is_not_hidden_everywhere(
    site: str, pool: BrowserPool
) -> None:
    """«keyword» reads like «key»: hidden where it was typed, not in the page's text."""
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        await page.goto(f"{site}/plain")
        recorder.begin()
        await _type(page, "Код доступа", "7")
        await _type(page, "Поиск", "201")
        await page.get_by_role("button", name="Найти").click()
        await page.get_by_text("Искали").wait_for()
        step = await recorder.end("day", page, {})
    sent = next(r for r in step.requests if r.method == "POST")
    assert sent.form == {"pin": "7", "staff_password": "***", "keyword": "***"}  # by name
    assert "Искали: 201; код: 7" in step.snapshot
