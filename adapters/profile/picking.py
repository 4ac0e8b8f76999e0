"""The LLM's pick of an element none of a Find's locators match any more, as the
``Finder``'s ``Pick``: the element it names, found by role and name (or by label for a
field), with the network guard put on first."""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import Page

from adapters.profile.finding import Pick
from adapters.profile.parts import Locator
from core.brain.element import ElementPicker, ElementWanted
from core.browser.guard import NetworkGuard
from core.browser.summary import summarize

__all__ = ["guarded_pick"]


def guarded_pick(
    picker: ElementPicker,
    network: NetworkGuard,
    may_change: Callable[[str], tuple[str, ...]],
    *,
    where_it_went: Callable[[Page], bool],
) -> Pick:
    """Until the step ends (the next one lifts the guard), only the changes the step
    declares (``may_change`` of the profile's part) get through, whatever the picked
    element turns out to do: a wrong pick fails its step, and nothing is written.

    Only on the page the step went to: one a redirect led to instead (a notice, an
    error page) is not the page changed but another page, the brain's to get past."""

    async def pick(page: Page, wanted: ElementWanted) -> Locator | None:
        if not where_it_went(page):
            return None
        chosen = await picker.pick(wanted, await summarize(page))
        if chosen is None:
            return None
        await network.arm(may_change=may_change(wanted.path.partition(".")[0]))
        if chosen.kind == "field":
            return Locator(label=chosen.name)
        return Locator(role=chosen.kind, name=chosen.name)

    return pick
