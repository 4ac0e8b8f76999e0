"""The page driver half of an Indico session: the browser page the login used, for the brain.

Indico's JSON calls need no page, but the login does, and when a step surprises the
scenario its brain looks at that page (``page_summary``) and acts on it by the handle the
summary marked for that exact role and name (``click``/``check``): no fuzzy matching, so it
cannot press a look-alike button, and under the network guard, so it cannot change anything.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from core.browser.controls import CLICKABLE_ROLES, press
from core.browser.guard import NetworkGuard
from core.browser.pages import close_page, open_page, storage_state
from core.browser.summary import summarize
from core.errors import BrowserError
from core.site import PageSummary, PortalUnavailable, UnexpectedPage

__all__ = ["PageDriver"]


class PageDriver:
    """One page on the caller's context, opened on first use and closed by ``close``."""

    def __init__(self, context: BrowserContext, *, timeout_s: float) -> None:
        self._context = context
        self._timeout_ms = timeout_s * 1000
        self._page: Page | None = None
        self._network = NetworkGuard(context)  # armed by the brain's clicks (see _own_page)

    async def _page_now(self) -> Page:
        if self._page is None or self._page.is_closed():
            self._page = await open_page(
                self._context, self._network, timeout_ms=self._timeout_ms, site="Indico"
            )
        return self._page

    async def _own_page(self) -> Page:
        """The page for the session's own next step (the login): first the guard a
        brain-chosen click left armed comes off (``NetworkGuard.lift``)."""
        await self._network.lift(self._page)
        return await self._page_now()

    async def page_summary(self) -> PageSummary:
        return await summarize(await self._page_now())

    def may_change(self, step: str) -> tuple[str, ...]:
        """What a brain-chosen action in ``step`` may send a change to: nothing. Indico is
        changed through its JSON API by the session, never by a click the brain chose."""
        return ()

    async def release(self) -> tuple[str, ...]:
        """The brain is done with the page: the guard comes off (``NetworkGuard.lift``)."""
        return await self._network.lift(self._page)

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        """Click the control the page summary names exactly so (by its handle), under the
        network guard for ``step`` (``core.browser.controls.press``)."""
        if CLICKABLE_ROLES.get(role) is None:
            raise ValueError(f"role must be one of {sorted(CLICKABLE_ROLES)}, not {role!r}")
        await self._press(role, name, step=step, what=f"{role} «{name}»")

    async def check(self, label: str, *, step: str = "") -> None:
        """Tick the checkbox labelled exactly ``label``, under the network guard."""
        await self._press("checkbox", label, step=step, what=f"флажок «{label}»")

    async def _press(self, role: str, name: str, *, step: str, what: str) -> None:
        page = await self._page_now()
        found = await self._do(
            press(page, self._network, role, name, may_change=self.may_change(step)), what
        )
        if not found:
            raise UnexpectedPage(f"На странице нет элемента {what}", await summarize(page))
        await self._do(page.wait_for_load_state(), what)

    async def _do(self, step: Any, what: str) -> Any:
        """One user-like step, not retried (it may not be safe to repeat)."""
        try:
            return await step
        except PlaywrightTimeoutError as exc:
            raise PortalUnavailable(f"Indico не ответил ({what})") from exc
        except PlaywrightError as exc:
            raise BrowserError(f"the browser failed on {what}") from exc

    async def storage_state(self) -> dict[str, Any]:
        """Cookies and local storage of the context, to be saved (encrypted) for next time."""
        return await storage_state(self._context)

    async def close(self) -> None:
        """Close this session's page (the context belongs to the caller)."""
        page, self._page = self._page, None
        await close_page(page)
