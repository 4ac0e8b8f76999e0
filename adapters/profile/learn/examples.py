"""Lists by example, as selector tools do: the operator clicks two items of a list in the
page (the clicks go nowhere while picking), the learner generalises them to one CSS
pattern — the two items' common ancestor, the items under it by the tag and classes they
share — highlights every match and asks the operator to confirm the count. For the item
holding a given text (the booking made), each piece of text in it is kept with its CSS
path inside the item, so a profile can pick fields by ``css`` as it does by ``column``.

Class names a build step made unique («booking-card___2e6pC») are kept by their stable
part (``[class*="__booking-card___"]``); classes with long digit runs are dropped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from pydantic import ValidationError

from adapters.profile.learn.css import TOKENS_JS
from adapters.profile.learn.recording import ListByExample

__all__ = ["pick_list"]

Say = Callable[[str], None]
Ask = Callable[[str], Awaitable[str | None]]


_PICKING = """() => {
  if (window.__clubmanPick) { window.__clubmanPick.picks.length = 0; return; }
  const picks = [];
  const stop = (event) => {
    event.preventDefault(); event.stopPropagation(); event.stopImmediatePropagation();
  };
  const click = (event) => {
    stop(event);
    const el = event.target instanceof Element ? event.target : event.target.parentElement;
    if (el) { picks.push(el); el.style.outline = '3px solid #d22'; }
  };
  const kinds = ['mousedown', 'mouseup', 'submit'];
  for (const kind of kinds) document.addEventListener(kind, stop, true);
  document.addEventListener('click', click, true);
  window.__clubmanPick = {picks, off: () => {
    for (const kind of kinds) document.removeEventListener(kind, stop, true);
    document.removeEventListener('click', click, true);
    delete window.__clubmanPick;
  }};
}"""

_GENERALISE = (
    "(needle) => {"
    + TOKENS_JS
    + """
  const state = window.__clubmanPick;
  if (!state || state.picks.length < 2) return null;
  const [a, b] = state.picks.slice(-2);
  const chain = (el) => {
    const out = [];
    for (let e = el; e; e = e.parentElement) out.unshift(e);
    return out;
  };
  const ca = chain(a), cb = chain(b);
  let depth = 0;
  while (depth < ca.length && depth < cb.length && ca[depth] === cb[depth]) depth++;
  if (depth >= ca.length || depth >= cb.length || depth === 0) return null;
  const parent = ca[depth - 1], first = ca[depth], second = cb[depth];
  if (first.tagName !== second.tagName) return null;
  const shared = tokens(first).filter((t) => tokens(second).includes(t));
  const item = shared.join('');
  const siblings = [...parent.children].filter((c) => c.matches(item));
  const exact = (css) => {
    const found = [...document.querySelectorAll(css)];
    return found.length === siblings.length && siblings.every((s) => found.includes(s));
  };
  let css = item;
  if (!exact(css)) css = `${tokens(parent).join('')} > ${item}`;
  let up = parent.parentElement;
  while (!exact(css) && up && up !== document.documentElement) {
    css = `${tokens(up).join('')} ${css}`;
    up = up.parentElement;
  }
  if (!exact(css)) return null;
  for (const el of state.picks) el.style.outline = '';
  const found = [...document.querySelectorAll(css)];
  for (const el of found) el.style.outline = '2px dashed #d22';
  const inside = (root, el) => {
    const parts = [];
    for (let e = el; e && e !== root; e = e.parentElement) {
      const same = [...e.parentElement.children].filter((s) => s.tagName === e.tagName);
      const index = same.indexOf(e) + 1;
      const nth = `${e.tagName.toLowerCase()}:nth-of-type(${index})`;
      parts.unshift(same.length > 1 ? nth : tokens(e).join(''));
    }
    return parts.join(' > ');
  };
  // No text asked for: the first item's pieces (what every item's are like).
  const holder = needle ? found.find((el) => el.innerText.includes(needle)) : found[0];
  const texts = [];
  if (holder) {
    for (const el of holder.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3)
        .map((n) => n.textContent).join(' ');
      const text = el.innerText ? el.innerText.replace(/\\s+/g, ' ').trim() : '';
      if (own.trim() && text) texts.push({css: inside(holder, el), text});
    }
  }
  // The heading the item sits under (a day's title over its cards): the nearest
  // element with text before it, or before an ancestor of it inside the list.
  let heading = null;
  for (let e = holder; e && !heading && e !== document.body; e = e.parentElement) {
    for (let s = e.previousElementSibling; s && !heading; s = s.previousElementSibling) {
      const text = (s.innerText || '').replace(/\\s+/g, ' ').trim();
      if (text && !found.some((f) => s.contains(f) || f.contains(s))) {
        heading = {css: tokens(s).join(''), text};
      }
    }
    if (found.every((f) => e.contains(f)) && e !== holder) break;  // the whole list's
  }
  const samples = found.slice(0, 3)
    .map((el) => (el.innerText || '').trim().split('\\n')[0].replace(/\\s+/g, ' '));
  return {css, count: found.length, samples, texts, heading};
}"""
)

# Two alike elements anywhere in the page (two busy bars of a timeline, in two rooms'
# lines, maybe of two kinds): what they share is what every such element has.
_SHARED = (
    "() => {"
    + TOKENS_JS
    + """
  const state = window.__clubmanPick;
  if (!state || state.picks.length < 2) return null;
  const [a, b] = state.picks.slice(-2);
  if (a === b || a.tagName !== b.tagName) return null;
  const css = tokens(a).filter((t) => tokens(b).includes(t)).join('');
  if (!/[.\\[]/.test(css)) return null;  // a bare tag says nothing of the two
  for (const el of state.picks) el.style.outline = '';
  const found = [...document.querySelectorAll(css)];
  for (const el of found) el.style.outline = '2px dashed #d22';
  return {css, count: found.length};
}"""
)

_CLEAR = """() => {
  for (const el of document.querySelectorAll('[style*="outline"]')) el.style.outline = '';
  if (window.__clubmanPick) window.__clubmanPick.off();
}"""


async def pick_list(
    context: BrowserContext,
    *,
    what: str,
    needle: str,
    say: Say,
    ask: Ask,
    anywhere: bool = False,
) -> tuple[ListByExample, Page]:
    """Ask the operator for two examples of ``what`` until the list they make is the one
    meant (the count confirmed), in whichever of the context's windows they click;
    ``needle``: a text of the item whose pieces are kept ("": the first item's).
    ``anywhere``: the examples are alike elements, not items of one list (every element
    with what the two share). Returns the list and its page. Raises ``EOFError`` when
    the operator's input ends."""
    while True:
        for page in context.pages:
            with contextlib.suppress(PlaywrightError):
                # On a page still loading, the picking would go with the document it replaces.
                await page.wait_for_load_state()
                await page.evaluate(_PICKING)
        if (
            await ask(
                f"Покажите список примерами: нажмите в окне браузера на два примера — {what} "
                "(переходов не будет). Затем Enter."
            )
            is None
        ):
            raise EOFError
        found = await _generalised(context, _SHARED if anywhere else _GENERALISE, needle)
        if found is None and await _picked(context) == 1:
            # One example says nothing of what items share: another is asked for, even
            # where the list has one item now (another booking made for it).
            say(
                f"Вижу один пример, а нужно два — {what}. Если в списке сейчас только один, "
                "сделайте на сайте ещё один (потом его можно удалить), откройте список снова "
                "и нажмите на оба. Повторите."
            )
            continue
        if found is None:
            say("Не вижу двух примеров одного списка: нажмите на два его элемента. Повторите.")
            continue
        shown, page = found
        listed = "; ".join(f"«{s}»" for s in shown.samples if s)
        answer = await ask(
            f"Нашёл {shown.count} (подсвечены): {listed}… Верно? Enter — да, «нет» — "
            "показать снова."
        )
        if answer is None:
            raise EOFError
        for each in context.pages:
            with contextlib.suppress(PlaywrightError):
                await each.evaluate(_CLEAR)
        if answer.strip().lower() in ("", "да", "yes", "y", "д"):
            return shown, page


async def _picked(context: BrowserContext) -> int:
    """How many examples the operator clicked (in the window with the most)."""
    counts = [0]
    for page in context.pages:
        with contextlib.suppress(PlaywrightError):
            counts.append(int(await page.evaluate("() => window.__clubmanPick?.picks.length ?? 0")))
    return max(counts)


async def _generalised(
    context: BrowserContext, script: str, needle: str
) -> tuple[ListByExample, Page] | None:
    """The list the operator's two clicks make, in the window they clicked in."""
    for page in context.pages:
        try:
            raw = await page.evaluate(script, needle)
            if raw:
                return ListByExample.model_validate(raw), page
        except (PlaywrightError, ValidationError):
            continue
    return None
