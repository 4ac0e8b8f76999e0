"""The address a GET form sends the browser to, computed from the page's HTML
(``adapters.profile.formhtml``), against the address a real Chromium requests when the
same fields are filled and the same button clicked through Playwright; and no address
where the form is one the reader does not follow exactly."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Page, Route

from adapters.profile.finding import candidate
from adapters.profile.formhtml import submitted_address
from adapters.profile.parts import Locator
from core.browser import BrowserPool

PAGE_URL = "http://site.test/my?old=1"
Fields = tuple[tuple[Locator, str], ...]


def label(text: str, *, exact: bool = True) -> Locator:
    return Locator(label=text, exact=exact)


def button(name: str, *, exact: bool = True) -> Locator:
    return Locator(role="button", name=name, exact=exact)


def css(selector: str) -> Locator:
    return Locator(css=selector)


def page_of(body: str) -> str:
    head = '<meta charset="utf-8"><title>Поиск</title>'
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"


QUERY = '<label for="q">Поиск</label><input id="q" name="q">'
SEARCH = f'<form method="get" action="/my">{QUERY}<input type="submit" value="Найти"></form>'
FIND = button("Найти")
ASKED = ((label("Поиск"), "физика"),)

# fmt: off
FOLLOWED = {
    "a search form": (SEARCH, ASKED, FIND),
    "hidden inputs and a default replaced": (
        '<form action="/search"><input type="hidden" name="mode" value="list all">'
        '<input type="hidden" name="blank"><input type="hidden" name="two" value="a&#10;b">'
        '<label for="q">Поиск</label><input id="q" name="q" value="старое"><button>Найти</button>'
        "</form>", ASKED, FIND),
    "checked and unchecked checkboxes": (
        '<form action="/rooms"><input type="checkbox" name="free" checked>'
        '<input type="checkbox" name="big" value="yes">'
        '<input type="checkbox" name="board" value="с доской" checked>'
        f'{QUERY}<input type="submit" value="Найти"></form>', ASKED, FIND),
    "selects with and without selected, one chosen": (
        '<form action="/rooms"><select name="building"><option value="1">Главный</option>'
        '<option value="2" selected>Второй</option></select>'
        '<select name="floor"><option disabled>выберите</option><option>  1  этаж </option>'
        "<option>2</option></select>"
        '<label for="kind">Тип</label><select id="kind" name="kind"><option value="">любой'
        '</option><option value="lecture">Лекционная</option></select>'
        '<select name="twice"><option selected>a</option><option selected>b</option>'
        '<option>c</option></select><select name="off"><option disabled selected>x</option>'
        "<option>y</option></select>"
        f'{QUERY}<input type="submit" value="Найти"></form>',
        ((label("Тип"), "lecture"), *ASKED), FIND),
    "an option chosen by its label": (
        '<form action="/rooms"><label for="kind">Тип</label><select id="kind" name="kind">'
        '<option value="">любой</option><option value="7">Лекционная</option></select>'
        '<input type="submit" value="Найти"></form>', ((label("Тип"), "Лекционная"),), FIND),
    "a named submit button, another not pressed": (
        f'<form action="/find">{QUERY}<button name="clear" value="2">Сбросить</button>'
        '<button name="go" value="1">Найти</button></form>', ASKED, FIND),
    "an action with its own query and fragment": (
        f'<form action="/search?page=2#results">{QUERY}<input type="submit" value="Найти">'
        "</form>", ASKED, FIND),
    "a relative action": (
        f'<form action="./find/../rooms/search">{QUERY}<input type="submit" value="Найти">'
        "</form>", ASKED, FIND),
    "no action: the page's own address": (
        f'<form>{QUERY}<input type="submit" value="Найти"></form>', ASKED, FIND),
    "non-ASCII, spaces and signs": (
        SEARCH, ((label("Поиск"), "  Иванов И. И. & co: 50%+~*'()!/?=#  "),), FIND),
    "labels by for and wrapping": (
        '<form action="/rooms"><label>Корпус <input name="building"></label>'
        f'{QUERY}<input type="submit" value="Найти"></form>',
        ((label("Корпус"), "главный корпус"), *ASKED), FIND),
    "two forms, the fields in the second": (
        '<form action="/login"><label for="u">Логин</label><input id="u" name="user">'
        '<input type="submit" value="Войти"></form>'
        f'<form action="/search">{QUERY}<input type="hidden" name="x" value="1">'
        '<input type="submit" value="Найти"></form>', ASKED, FIND),
    "textareas, typed and as written": (
        '<form action="/note"><label for="t">Заметка</label><textarea id="t" name="t">'
        "</textarea><textarea name=\"kept\">\nпервая\r\nвторая</textarea>"
        '<input type="submit" value="Найти"></form>',
        ((label("Заметка"), "две\nстроки"),), FIND),
    "css locators": (
        f'<form class="search" action="/s">{QUERY}<button type="submit">Искать</button></form>',
        ((css("form.search #q"), "физика"),), css("form.search button")),
    "the button's formmethod and formaction": (
        f'<form method="post" action="/post">{QUERY}'
        '<button formmethod="GET" formaction="/get">Найти</button></form>', ASKED, FIND),
    "disabled and nameless controls": (
        '<form action="/f"><input name="gone" value="3" disabled><input value="nameless">'
        f'<button disabled name="b" value="1">x</button>{QUERY}<input type="submit" value="Найти">'
        "</form>", ASKED, FIND),
    "a radio group": (
        '<form action="/f"><input type="radio" name="size" value="s">'
        '<input type="radio" name="size" value="m" checked><input type="radio" name="on" checked>'
        f'{QUERY}<input type="submit" value="Найти"></form>', ASKED, FIND),
    "a label and a name not exact": (
        '<form action="/f"><label for="q">Поиск  по фамилии:</label><input id="q" name="q">'
        '<button>Найти <b>сейчас</b></button></form>',
        ((label("поиск по", exact=False), "x"),), button("найти", exact=False)),
    "aria-label, number, e-mail left empty, maxlength": (
        '<form action="/f"><input name="q" aria-label="Поиск" maxlength="10">'
        '<input type="number" name="seats" aria-label="Мест"><label>Почта<input type="email"'
        ' name="mail"></label><input type="submit" value="Найти"></form>',
        ((label("Поиск"), "физика"), (label("Мест"), "30"), (label("Почта"), "")), FIND),
    "a line break counted once against maxlength": (
        '<form action="/n"><label for="t">Заметка</label><textarea id="t" name="t" maxlength="5">'
        '</textarea><input type="submit" value="Найти"></form>', ((label("Заметка"), "ab\ncd"),),
        FIND),
    "an icon in the button, an image button elsewhere": (
        '<form action="/login"><input type="image" name="in" alt="Войти" src="/in.png"></form>'
        f'<form action="/s">{QUERY}<button><i class="icon"></i> Найти</button></form>',
        ASKED, FIND),
    "what noscript holds is text": (
        '<noscript><label>Поиск<input name="x"></label></noscript>' + SEARCH, ASKED, FIND),
    "signs and non-ASCII in names and values": (
        '<form action="/a"><input type="hidden" name="a b&amp;c" value=" x+y&amp;z=1 ~*._-!\'()">'
        f'<input type="hidden" name="поиск[]" value="é">{QUERY}<button>Найти</button></form>',
        ASKED, FIND),
    "an empty formaction, the page's address": (
        f'<form action="/elsewhere">{QUERY}<button formaction="">Найти</button></form>',
        ASKED, FIND),
    "a blank action": (f'<form action="  ">{QUERY}<button>Найти</button></form>', ASKED, FIND),
    "an absolute action, another host and port": (
        f'<form action="http://other.test:8080/p?z#f">{QUERY}<button>Найти</button></form>',
        ASKED, FIND),
    "a disabled optgroup": (
        '<form action="/a"><select name="s"><optgroup disabled><option>a</option></optgroup>'
        f"<option>b</option></select>{QUERY}<button>Найти</button></form>", ASKED, FIND),
    "a field labelled by another element": (
        '<form action="/a"><span id="l1">Поиск</span><input name="q" aria-labelledby="l1 none">'
        "<button>Найти</button></form>", ASKED, FIND),
    "other buttons by role on the page": (
        '<div role="button">Меню</div><a role="button" href="#">Ещё</a>'
        f'<form action="/a">{QUERY}<button type="reset">Сброс</button><button>Найти</button>'
        "</form>", ASKED, FIND),
    "nothing named: an empty query": (
        '<form action="/all"><input type="submit" value="Показать все"></form>', (),
        button("Показать все")),
    "a default submit value": (
        f'<form action="/f">{QUERY}<input type="submit"></form>', ASKED, button("Submit")),
}

# Controls the parser ties to a form that, as the tree shows it, does not hold them.
TIED = {
    "a form in a table, its fields after it": (
        '<table><form action="/t"><tr><td><input name="q" aria-label="Поиск"></td>'
        '<td><input type="submit" value="Найти"></td></tr></form></table>', ASKED, FIND),
    "a form closed by its parent, fields after it": (
        '<div><form action="/d"></div><input name="q" aria-label="Поиск">'
        '<input type="submit" value="Найти">', ASKED, FIND),
}

UNFOLLOWED = {
    "method post": (SEARCH.replace('"get"', '"post"'), ASKED, FIND),
    "a method not named get": (SEARCH.replace('"get"', '"search"'), ASKED, FIND),
    "fields in two forms": (
        f'<form><label>Корпус <input name="b"></label></form><form>{QUERY}<button>Найти</button>'
        "</form>", ((label("Корпус"), "1"), *ASKED), FIND),
    "a locator finding two": (f"{SEARCH}{SEARCH}", ASKED, css("form input[type=submit]")),
    "a field label finding two": (
        SEARCH.replace("</form>", '<input aria-label="Поиск" name="p"></form>'), ASKED, FIND),
    "a link": (SEARCH, ASKED, Locator(role="link", name="Найти")),
    "a text": (SEARCH, ASKED, Locator(text="Найти")),
    "an xpath": (SEARCH, ASKED, Locator(xpath="//input[@type='submit']")),
    "a field by role": (SEARCH, ((Locator(role="textbox", name="Поиск"), "x"),), FIND),
    "a file input in the form": (
        SEARCH.replace("</form>", '<input type="file" name="f"></form>'), ASKED, FIND),
    "a date input in the form": (
        SEARCH.replace("</form>", '<input type="date" name="d"></form>'), ASKED, FIND),
    "a disabled field": (SEARCH.replace('name="q"', 'name="q" disabled'), ASKED, FIND),
    "a hidden field": (SEARCH.replace('name="q"', 'name="q" hidden'), ASKED, FIND),
    "no such option": (
        '<form><label for="k">Тип</label><select id="k" name="k"><option value="1">A</option>'
        "</select><button>Найти</button></form>", ((label("Тип"), "2"),), FIND),
    "a base element": (f'<base href="/other/">{SEARCH}', ASKED, FIND),
    "a named control outside every form": (f'<input name="loose">{SEARCH}', ASKED, FIND),
    "a form attribute": (SEARCH + '<input form="f" type="hidden">', ASKED, FIND),
    "an inline handler": (SEARCH.replace("<form", '<form onsubmit="return check()"'), ASKED, FIND),
    "a required field left empty": (
        SEARCH.replace("</form>", '<input name="r" required></form>'), ASKED, FIND),
    "a pattern": (SEARCH.replace('name="q"', 'name="q" pattern="[0-9]+"'), ASKED, FIND),
    "a named submit input without a value": (
        f'<form>{QUERY}<input type="submit" name="go"></form>', ASKED, button("Submit")),
    "the charset field": (
        SEARCH.replace("</form>", '<input type="hidden" name="_charset_"></form>'), ASKED, FIND),
    "a new window": (SEARCH.replace("<form", '<form target="_blank"'), ASKED, FIND),
    "a button that does not submit": (
        f'<form>{QUERY}<button type="button">Найти</button></form>', ASKED, FIND),
    "an image button": (
        f'<form>{QUERY}<input type="image" alt="Найти" src="/f.png"></form>', ASKED, FIND),
    "a hidden button": (SEARCH.replace('type="submit"', 'type="submit" hidden'), ASKED, FIND),
    "Playwright's text engine": (SEARCH, ASKED, css("text=Найти")),
    "Playwright's pseudo-class": (SEARCH, ASKED, css('input:has-text("Найти")')),
    "a state lexbor does not match": (SEARCH, ASKED, css("input:enabled[type=submit]")),
    "text longer than maxlength": (
        SEARCH.replace('name="q"', 'name="q" maxlength="3"'), ASKED, FIND),
    "a number with a fraction": (
        '<form><input type="number" name="n" aria-label="N"><button>Найти</button></form>',
        ((label("N"), "1.5"),), FIND),
    "a disabled fieldset": (
        SEARCH.replace("</form>", '<fieldset disabled><input name="f"></fieldset></form>'),
        ASKED, FIND),
    "an e-mail typed": (
        '<form><label>Почта<input type="email" name="mail"></label><button>Найти</button></form>',
        ((label("Почта"), "a.b@site.test"),), FIND),
    "a multiple select": (
        SEARCH.replace("</form>", '<select name="m" multiple><option>a</option></select></form>'),
        ASKED, FIND),
    "a custom element in the form": (
        SEARCH.replace("</form>", "<!-- x --><my-widget></my-widget></form>"), ASKED, FIND),
    **TIED,
    "a button named from outside": (
        f'<form>{QUERY}<button aria-labelledby="n">x</button></form><p id="n">Найти</p>',
        ASKED, FIND),
}
# fmt: on


async def address_in_chromium(page: Page, html: str, fields: Fields, submit: Locator) -> str:
    """The document address Chromium requests after the fields are filled and ``submit``
    clicked, on ``html`` served at ``PAGE_URL``."""
    documents: list[str] = []

    async def serve(route: Route) -> None:
        if route.request.is_navigation_request():
            documents.append(route.request.url)
        body = html if len(documents) == 1 else "<p>Найдено</p>"
        await route.fulfill(body=body, content_type="text/html; charset=utf-8")

    await page.route("**/*", serve)
    try:
        await page.goto(PAGE_URL)
        for way, value in fields:
            field = candidate(page, way)
            if await field.evaluate("e => e.tagName") == "SELECT":
                await field.select_option(value)
            else:
                await field.fill(value)
        async with page.expect_navigation():
            await candidate(page, submit).click()
    finally:
        await page.unroute("**/*", serve)
    assert len(documents) == 2, documents
    return documents[1]


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def page(pool: BrowserPool) -> AsyncIterator[Page]:
    async with pool.context() as context:
        opened = await context.new_page()
        opened.set_default_timeout(5_000)
        yield opened


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(("body", "fields", "submit"), FOLLOWED.values(), ids=FOLLOWED.keys())
async def test_the_address_is_the_one_chromium_requests(
    page: Page, body: str, fields: Fields, submit: Locator
) -> None:
    html = page_of(body)
    requested = await address_in_chromium(page, html, fields, submit)
    assert submitted_address(html, PAGE_URL, fields, submit) == requested


def test_a_search_is_its_action_with_the_field_urlencoded() -> None:
    got = submitted_address(page_of(SEARCH), PAGE_URL, ((label("Поиск"), "ф и"),), FIND)
    assert got == "http://site.test/my?q=%D1%84+%D0%B8"


@pytest.mark.parametrize(("body", "fields", "submit"), UNFOLLOWED.values(), ids=UNFOLLOWED.keys())
def test_a_form_not_followed_exactly_gives_no_address(
    body: str, fields: Fields, submit: Locator
) -> None:
    assert submitted_address(page_of(body), PAGE_URL, fields, submit) is None


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(("body", "fields", "submit"), TIED.values(), ids=TIED.keys())
async def test_the_parser_ties_controls_out_of_a_form_to_it(
    page: Page, body: str, fields: Fields, submit: Locator
) -> None:
    """Why a named control outside every form gives None: Chromium sends it with a form
    whose element, as the parsed tree shows it, does not hold it."""
    requested = await address_in_chromium(page, page_of(body), fields, submit)
    assert "?q=%D1%84" in requested
    assert submitted_address(page_of(body), PAGE_URL, fields, submit) is None


def test_non_ascii_needs_a_page_in_utf8() -> None:
    cp1251 = page_of(SEARCH).replace('charset="utf-8"', 'charset="windows-1251"')
    assert submitted_address(cp1251, PAGE_URL, ASKED, FIND) is None
    assert submitted_address(page_of(SEARCH), PAGE_URL, ASKED, FIND, encoding="koi8-r") is None
    ascii_only = ((label("Поиск"), "physics"),)
    assert submitted_address(cp1251, PAGE_URL, ascii_only, FIND) == "http://site.test/my?q=physics"


def test_a_move_within_the_page_gives_no_address() -> None:
    html = page_of('<form action="#results"><input type="hidden" name="old" value="1">'
                   '<input type="submit" value="Найти"></form>')  # fmt: skip
    assert submitted_address(html, PAGE_URL, (), FIND) is None
    assert submitted_address(html, "http://site.test/my", (), FIND) == "http://site.test/my?old=1"
