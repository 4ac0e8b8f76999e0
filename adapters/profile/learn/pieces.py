"""The pieces of text a page shows where it has no «term: value» pairs (a booking drawn in
a modal by the site's script): each element of the topmost dialog (else of the page)
with its words and a CSS path that finds it alone, so a draft can pick a booking's
fields by the values the operator named, as it picks a list's by ``css``.

A path is built from the element's tag and stable classes (``adapters.profile.learn.css``),
climbing to its
ancestors until it is unique in the page; only where that is not enough does it count
its place among its siblings."""

from __future__ import annotations

import json

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydantic import TypeAdapter, ValidationError

from adapters.profile.learn.css import ALONE_JS, TOKENS_JS
from adapters.profile.learn.recording import PickedText

__all__ = ["page_pieces"]

_PIECES = (
    "() => {"
    + TOKENS_JS
    + ALONE_JS  # alone(css, el), nth(el)
    + r"""
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const dialogs = [...document.querySelectorAll(
    'dialog[open], [role=dialog], [aria-modal=true], .modal')].filter(shown);
  const root = dialogs.length ? dialogs[dialogs.length - 1] : document.body;
  // The dialog by what makes it one, where that finds it alone: its other classes
  // («large», «scrolling») may change with the window.
  const rootCss = root === document.body ? 'body' : (() => {
    const tag = root.tagName.toLowerCase();
    const whole = tokens(root).join('');
    for (const css of [tag + '[role=dialog]', tag + '[aria-modal=true]', tag + '.modal', whole]) {
      if (root.matches(css) && document.querySelectorAll(css).length === 1) return css;
    }
    return whole;
  })();
  const path = (el) => {
    const chain = [];
    for (let e = el; e && e !== root; e = e.parentElement) chain.push(e);
    // Tokens alone, climbing; then the element's place among its siblings; then every
    // step's place, child by child.
    for (const counted of [false, true]) {
      let css = tokens(el).join('') + (counted ? nth(el) : '');
      if (alone(`${rootCss} ${css}`, el)) return `${rootCss} ${css}`;
      for (const up of chain.slice(1)) {
        css = `${tokens(up).join('')} ${css}`;
        if (alone(`${rootCss} ${css}`, el)) return `${rootCss} ${css}`;
      }
    }
    const steps = chain.reverse().map((e) => tokens(e).join('') + nth(e));
    const exact = `${rootCss} > ${steps.join(' > ')}`;
    return alone(exact, el) ? exact : null;
  };
  const pieces = [];
  for (const el of root.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const text = (el.innerText || '').replace(/\s+/g, ' ').trim();
    if (!text || text.length > 200) continue;
    const css = path(el);
    if (css) pieces.push({css, text});
  }
  return JSON.stringify(pieces);
}"""
)

_PIECES_OF = TypeAdapter(tuple[PickedText, ...])


async def page_pieces(page: Page) -> tuple[PickedText, ...]:
    """Each shown element of the page's topmost dialog (else of the page) with up to 200
    characters of text, and the CSS that finds it alone; () when the page cannot say."""
    try:
        return _PIECES_OF.validate_python(json.loads(await page.evaluate(_PIECES)))
    except (PlaywrightError, ValidationError, ValueError):
        return ()
