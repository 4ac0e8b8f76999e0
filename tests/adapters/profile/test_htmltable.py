"""A table read from HTML without a browser (``adapters.profile.htmltable``) against the
same HTML read by a real Chromium (``reading.read_table``): the same ``Table``, cell for
cell, for what the HTML table model and the browser's text make of spans, implied tags,
hidden parts, inline and block elements, probes and ``has`` tests; and no table where the
locator is one the reader does not follow or finds more than one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Page

from adapters.profile.finding import candidate
from adapters.profile.htmltable import table_in_html
from adapters.profile.parts import Locator
from adapters.profile.reading import read_table
from core.browser import BrowserPool

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROBES = ("a@href", "@data-room", "span", "time@datetime", "b")
HAS = ("a[href]", "form button", "td > i")
LINE_PROBES = ("@data-booking-id", "td:first-child")

_SPANS = """
<h2 id="title">Мои   брони</h2>
<table class="list" aria-labelledby="title">
  <tfoot><tr><td colspan="3">Итого: 2</td></tr></tfoot>
  <thead><tr><th>Номер</th><th>Время</th><th>Цель</th></tr></thead>
  <tbody>
    <tr data-booking-id="7"><td rowspan="2">7<td>10:00<span>–</span>12:00<td>a<br>b
    <tr data-booking-id="8"><td colspan="2"><div>block</div><div>two</div>
    <tr><td rowspan="5">runs past its body</td><td>x</td></tr>
  </tbody>
  <tbody><tr><td>next body</td></tr></tbody>
</table>
"""

_PARTS = """
<table aria-label="Занятость">
  <caption>not the name: aria-label is</caption>
  <tr data-room="main-101"><th title="Аудитория 101">101 <small>3 этаж</small></th>
    <td><a href="/book?room=1" aria-label="10:00–10:30, свободно">+</a></td>
    <td><i>busy</i><span style="display: none">hidden text</span></td></tr>
  <tr hidden><td>hidden <b>row</b></td><td>x</td></tr>
  <tr><td>&nbsp;spaced&nbsp;&nbsp;out&nbsp;</td>
    <td><form><button>Отменить</button><script>var x = 1;</script></form></td>
    <td><time datetime="2026-12-04">04.12.2026</time>
      <table><tr><td>nested</td><td>cell</td></tr></table></td></tr>
</table>
"""

# Cells of text and inline elements (read in one call) beside ones that only look so.
_INLINE = """
<table class="plain">
  <tr><td><a href="/r?1"><b>Ва</b>ша</a> бронь<!-- a comment --></td>
    <td><span hidden>hidden</span>shown</td><td><em style="display: none">gone</em>kept</td></tr>
  <tr><td><b>a<br>b</b></td><td><small>x <i>y</i>   z</small></td>
    <td><span><span><img alt="pic">after</span></span></td></tr>
  <tr><td>&nbsp;<time datetime="2026-12-04">04.12</time>&nbsp;</td>
    <td><span><div>in</div>line</span></td>
    <td><q>a</q><s>b</s><!-- x --><sub>c</sub></td></tr>
</table>
"""

CASES = [
    (_INLINE, Locator(css="table.plain")),
    (_SPANS, Locator(role="table", name="Мои брони")),
    (_SPANS, Locator(css="table.list")),
    (_SPANS, Locator(role="table", name="мои", exact=False)),
    (_PARTS, Locator(role="table", name="Занятость")),
    (_PARTS, Locator(css="body > table")),
]


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def page() -> AsyncIterator[Page]:
    async with BrowserPool() as pool, pool.context() as context:
        yield await context.new_page()


@pytest.mark.parametrize(("html", "way"), CASES)
async def test_a_table_read_from_its_html_is_the_table_the_browser_reads(
    page: Page, html: str, way: Locator
) -> None:
    await page.set_content(f"<!doctype html><html><body>{html}</body></html>")
    located = candidate(page, way)
    assert await located.count() == 1
    in_browser = await read_table(located.first, probes=PROBES, has=HAS, line_probes=LINE_PROBES)
    from_html = table_in_html(html, way, probes=PROBES, has=HAS, line_probes=LINE_PROBES)
    assert from_html == in_browser
    assert len(in_browser.lines) >= 3 and in_browser.cells


@pytest.mark.parametrize(
    "way",
    [
        Locator(role="grid", name="Мои брони"),  # a role other than a table's
        Locator(label="Мои брони"),
        Locator(text="Мои брони"),
        Locator(xpath="//table"),
        Locator(css="table:has-text('Номер')"),  # Playwright's own CSS
        Locator(css="table"),  # two tables (and a third inside one)
        Locator(role="table", name="Нет такой"),
    ],
)
async def test_no_table_where_the_locator_is_not_followed_or_finds_not_one(way: Locator) -> None:
    assert table_in_html(_SPANS + _PARTS, way) is None


async def test_a_probe_the_reader_does_not_follow_gives_no_table() -> None:
    way = Locator(css="table.list")
    assert table_in_html(_SPANS, way, probes=("span:visible",)) is None
    assert table_in_html(_SPANS, way, probes=("span",)) is not None


async def test_a_table_under_deep_nesting_is_read_one_deeper_than_python_walks_is_none() -> None:
    table = "<table class=deep><tr><td>x</td><td>{cell}</td></tr></table>"
    under = "<div>" * 5000 + table.format(cell="y") + "</div>" * 5000
    found = table_in_html(under, Locator(css="table.deep"))
    assert found is not None and [c.text for c in found.cells] == ["x", "y"]
    # Text in nothing but inline elements is read in one call, however deep.
    inline = table.format(cell="<span>" * 5000 + "y" + "</span>" * 5000)
    found = table_in_html(inline, Locator(css="table.deep"))
    assert found is not None and [c.text for c in found.cells] == ["x", "y"]
    blocks = table.format(cell="<div>" * 5000 + "y" + "</div>" * 5000)
    assert table_in_html(blocks, Locator(css="table.deep")) is None  # not a RecursionError
