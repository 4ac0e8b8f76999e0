"""What of a page may be pressed on a profile's site.

A profile's control (a button, a link, a checkbox: found by a ``Find``) is pressed only
when the page says it is the step's: its accessible name is one the step's named
candidates give (``role`` with ``name``, ``text``, ``label``; an ``exact: false`` one by
the words it contains). A candidate with no name (``css``, ``xpath``, a ``role`` alone)
may find the element, but does not vouch for it: a site that reworded its button and put
«Удалить все брони» first in the form would have a positional candidate press that.
Outside cancelling, nothing whose name, title, address or form's action speaks of
deleting or cancelling is pressed at all, whatever the profile's candidates match.

(A brain-chosen click is the session's: ``core.browser.driver``.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.async_api import Locator as PwLocator

from core.browser.harm import fold

__all__ = ["DESTRUCTIVE", "Refusal", "is_destructive", "refusal"]

# Stems of what deletes or cancels (folded as the brain's forbidden words are: look-alike
# letters and invisible characters cannot hide one).
_STEMS = (
    "удал", "отмен", "аннулир", "очист", "сброс", "стере", "стира", "снять", "сними",
    "delet", "remov", "cancel", "clear", "cleanup", "reset", "purge", "erase", "destroy",
    "revoke", "wipe", "discard",
)  # fmt: skip
DESTRUCTIVE = re.compile("|".join(re.escape(fold(stem)) for stem in _STEMS))

# What an element says, in one round trip: its name as a person reads it (an aria-label,
# its text, a submit input's value), and the rest it may speak through: its title, its
# link's address, the address its form is sent to.
_SAYS = """(el) => {
  const plain = (text) => (text || "").replace(/\\s+/g, " ").trim();
  const submits = el.form && ["submit", "image"].includes(el.type);
  const sentTo = el.getAttribute("formaction")
    || (submits ? el.form.getAttribute("action") : null);
  const name = plain(el.getAttribute("aria-label"))
    || plain(el.innerText || el.textContent) || plain(el.value) || plain(el.title);
  return [name, plain(el.innerText || el.textContent), plain(el.value), plain(el.title),
          plain(el.getAttribute("href")), plain(sentTo)];
}"""


def is_destructive(*texts: str) -> bool:
    """Whether any of ``texts`` speaks of deleting or cancelling."""
    return any(DESTRUCTIVE.search(fold(text)) for text in texts if text)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an element found for a control is not pressed: ``said`` is its name."""

    said: str
    destructive: bool  # it deletes or cancels (else: it is named otherwise than the step's)


async def refusal(
    element: PwLocator,
    named: Sequence[PwLocator],
    texts: Sequence[tuple[str, bool]],
    *,
    cancels: bool,
) -> Refusal | None:
    """None when ``element`` may be pressed: it is one of ``named`` (the step's named
    candidates, as locators) or its name is one of ``texts`` (text, exact) — either, when
    the step names none — and, unless the step ``cancels``, it does not delete or cancel."""
    says: list[str] = await element.evaluate(_SAYS)
    name = says[0]
    if not cancels and is_destructive(*says):
        return Refusal(name, destructive=True)
    if not named and not texts:
        return None
    folded = " ".join(name.split())
    for text, exact in texts:
        if folded == text if exact else text.casefold() in folded.casefold():
            return None
    for way in named:
        if await element.and_(way).count():
            return None
    return Refusal(name, destructive=False)
