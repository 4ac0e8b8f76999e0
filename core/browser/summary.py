"""``PageSummary``: what a person (or an LLM) needs to know about the current page.

Read in one ``evaluate`` call from accessible names and labels; form values are never
read, so a typed password cannot leak into a summary. The same call marks every listed
control with a ``data-clubman-id`` handle (``read_controls``), so that a click goes to the
element that was summarised under that name, never to a look-alike found by searching.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from core.site.models import PageSummary

__all__ = ["HANDLE", "MAX_TEXT", "Control", "read_controls", "summarize"]

MAX_TEXT = 2000
HANDLE = "data-clubman-id"
_MAX_ITEMS = 30

_READ = """
() => {
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const clean = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const named = (el) =>
    clean(el.getAttribute("aria-label") || el.innerText || el.value || el.title);
  // What else says what a control does: read by the forbidden-intent check, not shown.
  const intent = (el) => {
    const form = el.form || el.closest("form");
    return [el.getAttribute("title"), el.getAttribute("aria-label"), el.getAttribute("href"),
            el.getAttribute("formaction"), form ? form.getAttribute("action") : ""]
      .map(clean).filter(Boolean);
  };
  const controls = [];
  const mark = (el, role, name) => {
    const id = String(controls.length + 1);
    el.setAttribute("HANDLE", id);
    controls.push({role, name, id, intent: intent(el)});
  };
  for (const el of document.querySelectorAll("[HANDLE]")) el.removeAttribute("HANDLE");
  const fields = [];
  const checkboxes = [];
  for (const el of document.querySelectorAll("input, select, textarea")) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "hidden" || type === "submit" || type === "button" || !visible(el)) continue;
    const label = el.labels && el.labels.length ? el.labels[0].innerText : "";
    const name = clean(label || el.getAttribute("aria-label") || el.placeholder || el.name);
    if (!name) continue;
    fields.push(name);
    if (type === "checkbox") checkboxes.push(name);
    mark(el, type === "checkbox" ? "checkbox" : "field", name);
  }
  const buttons = [];
  const clickable = "button, input[type=submit], input[type=button], [role=button]";
  for (const el of document.querySelectorAll(clickable)) {
    if (!visible(el) || !named(el)) continue;
    buttons.push(named(el));
    mark(el, "button", named(el));
  }
  const links = [];
  for (const el of document.querySelectorAll("a[href]")) {
    if (!visible(el) || !named(el)) continue;
    links.push(named(el));
    mark(el, "link", named(el));
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
    fields, checkboxes, buttons, links, alerts, controls,
  };
}
""".replace("HANDLE", HANDLE)


@dataclass(frozen=True, slots=True)
class Control:
    """One summarised control: its role and name as the summary lists them, the handle
    that finds exactly it, and the rest of what says what it does (title, form action…)."""

    role: str  # "button", "link", "checkbox" or "field"
    name: str
    handle: str
    intent: tuple[str, ...] = ()

    @property
    def selector(self) -> str:
        return f'[{HANDLE}="{self.handle}"]'


def _unique(items: list[str], limit: int = _MAX_ITEMS) -> list[str]:
    seen = list(dict.fromkeys(items))
    if len(seen) > limit:
        return [*seen[:limit], f"… ещё {len(seen) - limit}"]
    return seen


def _trim(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    joined = "\n".join(line for line in lines if line)
    return joined if len(joined) <= MAX_TEXT else joined[: MAX_TEXT - 1].rstrip() + "…"


async def _read(page: Page) -> dict[str, Any] | None:
    try:
        raw: dict[str, Any] = await page.evaluate(_READ)
    except PlaywrightError:  # a closed or navigating page
        return None
    return raw


async def summarize(page: Page) -> PageSummary:
    """The current page; a page that cannot be read gives a summary with just its URL."""
    raw = await _read(page)
    if raw is None:  # it still deserves a summary
        return PageSummary(url=page.url, title="")
    return PageSummary(
        url=page.url,
        title=str(raw.get("title", "")),
        heading=str(raw.get("heading", "")),
        text=_trim(str(raw.get("text", ""))),
        fields=_unique([str(f) for f in raw.get("fields", [])]),
        checkboxes=_unique([str(c) for c in raw.get("checkboxes", [])]),
        buttons=_unique([str(b) for b in raw.get("buttons", [])]),
        links=_unique([str(a) for a in raw.get("links", [])]),
        alerts=_unique([str(a) for a in raw.get("alerts", [])]),
    )


async def read_controls(page: Page) -> list[Control]:
    """The page's controls as ``summarize`` names them, each freshly marked with a handle."""
    raw = await _read(page)
    if raw is None:
        return []
    return [
        Control(
            role=str(c["role"]),
            name=str(c["name"]),
            handle=str(c["id"]),
            intent=tuple(str(i) for i in c.get("intent", [])),
        )
        for c in raw.get("controls", [])
    ]
