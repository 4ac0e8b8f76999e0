"""The drop-downs of a page as its DOM has them: every ``<select>``, shown or hidden under a
widget a script draws over it (select2 leaves only a combobox with a textbox in the
accessibility snapshot, no options), with a CSS that finds it alone, its name, its label,
its options and the one chosen. A profile reads a drop-down's options from the DOM, so
the learner drafts it from what the DOM holds, not from what the snapshot shows.

The CSS is the select's stable id, else its name (which finds the page's copies of one
drop-down alike: any of them lists the same), preceded where that is not enough by its
nearest ancestor's id or classes (``adapters.profile.learn.css``); copies are kept once."""

from __future__ import annotations

import json

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydantic import TypeAdapter, ValidationError

from adapters.profile.learn.css import ALONE_JS, TOKENS_JS
from adapters.profile.learn.recording import ShownSelect

__all__ = ["page_selects"]

_SELECTS = (
    "() => {"
    + TOKENS_JS
    + ALONE_JS
    + r"""
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const quoted = (text) => '"' + text.replace(/["\\]/g, "\\$&") + '"';
  const optionsOf = (el) => JSON.stringify([...el.options].map((o) => [o.value, o.text]));
  const cssOf = (el) => {
    const id = idOf(el);
    if (id && alone(id, el)) return id;
    if (el.name) {
      // The page's copies of one drop-down (MRBS draws its area's above and below the
      // grid) are all it: its name finds them, and any of them lists the same.
      const named = `select[name=${quoted(el.name)}]`;
      const all = [...document.querySelectorAll(named)];
      if (all.every((s) => optionsOf(s) === optionsOf(el))) return named;
    }
    return aloneCss(el, [id, el.name ? `select[name=${quoted(el.name)}]` : tokens(el).join("")]);
  };
  // What a person sees of it: it is drawn with a size and not hidden from the
  // accessibility tree (select2 keeps the select 1px wide, clipped, aria-hidden).
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && (!el.checkVisibility || el.checkVisibility())
      && !el.closest("[aria-hidden=true]");
  };
  const label = (el) => {
    if (el.labels && el.labels.length) {
      // A label wrapping the select: its own words, not the options'.
      const words = [...el.labels[0].childNodes].filter((n) => !n.contains(el))
        .map((n) => n.textContent).join(" ");
      if (clean(words)) return clean(words);
    }
    return clean(el.getAttribute("aria-label")) || clean(el.getAttribute("title"));
  };
  const found = [], seen = new Set();
  for (const el of [...document.querySelectorAll("select")].slice(0, 50)) {
    const css = cssOf(el);
    if (!css || !el.options.length || seen.has(css)) continue;  // a copy: kept once
    seen.add(css);
    const options = [...el.options].slice(0, 500)
      .map((o) => ({ value: o.value, text: clean(o.textContent) }));
    const chosen = el.selectedOptions.length ? el.selectedOptions[0].value : null;
    found.push({ css, name: el.getAttribute("name") || "", label: label(el), options, chosen,
                 shown: shown(el) });
  }
  return JSON.stringify(found);
}"""
)

_SELECTS_OF = TypeAdapter(tuple[ShownSelect, ...])


async def page_selects(page: Page) -> tuple[ShownSelect, ...]:
    """The page's drop-downs (up to 50, each with up to 500 options), each with the CSS
    that finds it alone; () when the page cannot say."""
    try:
        return _SELECTS_OF.validate_python(json.loads(await page.evaluate(_SELECTS)))
    except (PlaywrightError, ValidationError, ValueError):
        return ()
