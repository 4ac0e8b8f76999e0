"""The heading cells of a page's tables as a profile reads their text (``innerText``, as
``adapters.profile.reading`` does), where the accessibility snapshot may show another:
MRBS writes a room's header as ``101<span class="capacity">30</span>`` and draws the
brackets with CSS, so the snapshot says «101 (30)» and a profile reads «10130». Each cell
comes with the elements inside it that have text of their own, and the cell's text with
each left out, exactly as a profile's ``without`` reads it, and the CSS that finds its
table alone; so the learner drafts a room's number from what will be read, not from what
the snapshot shows, and finds the grid by more than its role."""

from __future__ import annotations

import json

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydantic import TypeAdapter, ValidationError

from adapters.profile.learn.css import ALONE_JS, TOKENS_JS
from adapters.profile.learn.recording import TitleCell
from adapters.profile.reading import DESCRIBE_JS

__all__ = ["page_titles"]

_TITLES = (
    "() => {"
    + DESCRIBE_JS
    + TOKENS_JS
    + ALONE_JS
    + r"""
  const heads = document.querySelectorAll(
    "table th, table [role=columnheader], table [role=rowheader]");
  const tables = new Map();  // a table's CSS, once for all its cells
  const tableOf = (cell) => {
    const table = cell.closest("table");
    if (!tables.has(table)) {
      tables.set(table, aloneCss(table, [idOf(table), tokens(table).join("")]));
    }
    return tables.get(table) || "";
  };
  const found = [];
  for (const cell of [...heads].slice(0, 400)) {
    const text = clean(cell.innerText || cell.textContent);
    if (!text || text.length > 200) continue;
    const parts = [], seen = new Set();
    for (const el of cell.querySelectorAll("*")) {
      const own = clean(el.innerText);
      const css = tokens(el).join("");
      if (!own || own === text || seen.has(css) || parts.length >= 6) continue;
      seen.add(css);
      parts.push({ css, text: own, rest: textWithout(cell, css) });
    }
    found.push({ text, parts, table: tableOf(cell) });
  }
  return JSON.stringify(found);
}"""
)

_TITLES_OF = TypeAdapter(tuple[TitleCell, ...])


async def page_titles(page: Page) -> tuple[TitleCell, ...]:
    """The page's tables' heading cells (up to 400) with text, each with up to six
    elements inside it that say something of their own; () when the page cannot say."""
    try:
        return _TITLES_OF.validate_python(json.loads(await page.evaluate(_TITLES)))
    except (PlaywrightError, ValidationError, ValueError):
        return ()
