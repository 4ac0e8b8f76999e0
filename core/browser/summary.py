"""``PageSummary``: what a person (or an LLM) needs to know about the current page.

Read in one ``evaluate`` call from accessible names and labels; form values are never
read, so a typed password cannot leak into a summary.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from core.booking.models import PageSummary

__all__ = ["MAX_TEXT", "summarize"]

MAX_TEXT = 2000
_MAX_ITEMS = 30

_READ = """
() => {
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const clean = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const named = (el) =>
    clean(el.getAttribute("aria-label") || el.innerText || el.value || el.title);
  const fields = [];
  for (const el of document.querySelectorAll("input, select, textarea")) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "hidden" || type === "submit" || type === "button" || !visible(el)) continue;
    const label = el.labels && el.labels.length ? el.labels[0].innerText : "";
    const name = clean(label || el.getAttribute("aria-label") || el.placeholder || el.name);
    if (name) fields.push(name);
  }
  const buttons = [];
  const clickable = "button, input[type=submit], input[type=button], [role=button]";
  for (const el of document.querySelectorAll(clickable)) {
    if (visible(el) && named(el)) buttons.push(named(el));
  }
  const links = [];
  for (const el of document.querySelectorAll("a[href]")) {
    if (visible(el) && named(el)) links.push(named(el));
  }
  const alerts = [];
  for (const el of document.querySelectorAll("[role=alert], [role=status]")) {
    if (clean(el.innerText)) alerts.push(clean(el.innerText));
  }
  const h1 = document.querySelector("h1") || document.querySelector("h2");
  return {
    title: document.title,
    heading: h1 ? clean(h1.innerText) : "",
    text: document.body ? document.body.innerText : "",
    fields, buttons, links, alerts,
  };
}
"""


def _unique(items: list[str], limit: int = _MAX_ITEMS) -> list[str]:
    seen = list(dict.fromkeys(items))
    if len(seen) > limit:
        return [*seen[:limit], f"… ещё {len(seen) - limit}"]
    return seen


def _trim(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    joined = "\n".join(line for line in lines if line)
    return joined if len(joined) <= MAX_TEXT else joined[: MAX_TEXT - 1].rstrip() + "…"


async def summarize(page: Page) -> PageSummary:
    """The current page; a page that cannot be read gives a summary with just its URL."""
    try:
        raw: dict[str, Any] = await page.evaluate(_READ)
    except PlaywrightError:  # a closed or navigating page still deserves a summary
        return PageSummary(url=page.url, title="")
    return PageSummary(
        url=page.url,
        title=str(raw.get("title", "")),
        heading=str(raw.get("heading", "")),
        text=_trim(str(raw.get("text", ""))),
        fields=_unique([str(f) for f in raw.get("fields", [])]),
        buttons=_unique([str(b) for b in raw.get("buttons", [])]),
        links=_unique([str(a) for a in raw.get("links", [])]),
        alerts=_unique([str(a) for a in raw.get("alerts", [])]),
    )
