"""Pressing a summarised control for the brain: by its handle, exact name only, its
intent checked, under the network guard.

    await press(page, guard, "button", "Продолжить", may_change=("https://…/notice",))

Returns False when the page lists no such control (the driver says so in its own
words); raises ``ControlRefused`` when its title, aria-label or form action names a
forbidden intent, ``RequestBlocked`` when the guard stopped a request. Two controls with
the same role and name are refused too: which one the model meant cannot be known.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Collection
from typing import Literal

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from core.browser.guard import NetworkGuard
from core.browser.harm import ControlRefused, is_forbidden
from core.browser.summary import Control, read_controls

__all__ = ["CLICKABLE_ROLES", "SETTLE_MS", "ClickRole", "find_control", "press"]

# The roles of controls a brain-chosen action may click, as Playwright names them.
ClickRole = Literal["button", "link", "checkbox", "radio", "tab", "menuitem", "option"]
CLICKABLE_ROLES: dict[str, ClickRole] = {
    role: role for role in ("button", "link", "checkbox", "radio", "tab", "menuitem", "option")
}

# How long the page is watched after the click before it is judged, whatever its load
# state says («networkidle» on an idle page returns at once, and a handler may wait before
# it sends); later requests are still guarded, and reported when the guard is lifted. The
# portal's own pages settle in well under 100 ms.
SETTLE_MS = 1500


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


async def find_control(page: Page, role: str, name: str) -> Control | None:
    """The one control the summary names exactly so (case and all), freshly marked."""
    found = [c for c in await read_controls(page) if c.role == role and _same(c.name, name)]
    if len(found) > 1:
        raise ControlRefused(
            f"{len(found)} controls are named {role} «{name}»", what=(f"{role} «{name}»",)
        )
    return found[0] if found else None


async def press(
    page: Page,
    guard: NetworkGuard,
    role: str,
    name: str,
    *,
    may_change: Collection[str] = (),
) -> bool:
    """Click the button or link (or tick the checkbox) named exactly ``name``."""
    control = await find_control(page, role, name)
    if control is None:
        return False
    if is_forbidden(control.name, *control.intent):
        raise ControlRefused(
            f"{role} «{name}» is refused: " + "; ".join(control.intent),
            what=(f"{role} «{name}»", *control.intent),
        )
    element = page.locator(control.selector)

    async def act() -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + SETTLE_MS / 1000
        if role == "checkbox":
            await element.check()
        else:
            await element.click()
        with contextlib.suppress(PlaywrightError):
            await page.wait_for_load_state("networkidle", timeout=SETTLE_MS)
        await asyncio.sleep(max(0.0, until - loop.time()))  # the full window, always

    await guard.run(act, may_change=may_change)
    return True
