"""The page driver half of an Indico session: the browser page the login used, for the brain.

Indico's JSON calls need no page, but the login does, and when a step surprises the
scenario its brain looks at that page (``page_summary``) and acts on it by exact role and
accessible name only (``click``/``check``): no fuzzy matching, so it cannot press a
look-alike button.
"""

from __future__ import annotations

from typing import Any, Literal

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from core.booking.errors import PortalUnavailable, UnexpectedPage
from core.booking.models import PageSummary
from core.browser.pages import close_page, storage_state
from core.browser.summary import summarize
from core.errors import BrowserError

__all__ = ["CLICKABLE_ROLES", "PageDriver"]


ClickRole = Literal["button", "link", "checkbox", "radio", "tab", "menuitem", "option"]
CLICKABLE_ROLES: dict[str, ClickRole] = {
    role: role for role in ("button", "link", "checkbox", "radio", "tab", "menuitem", "option")
}


class PageDriver:
    """One page on the caller's context, opened on first use and closed by ``close``."""

    def __init__(self, context: BrowserContext, *, timeout_s: float) -> None:
        self._context = context
        self._timeout_ms = timeout_s * 1000
        self._page: Page | None = None

    async def _page_now(self) -> Page:
        if self._page is None or self._page.is_closed():
            try:
                self._page = await self._context.new_page()
            except PlaywrightError as exc:
                raise BrowserError("could not open a page for Indico") from exc
            self._page.set_default_timeout(self._timeout_ms)
            self._page.set_default_navigation_timeout(self._timeout_ms)
        return self._page

    async def page_summary(self) -> PageSummary:
        return await summarize(await self._page_now())

    async def click(self, role: str, name: str) -> None:
        """Click the one element with exactly this role and accessible name."""
        aria_role = CLICKABLE_ROLES.get(role)
        if aria_role is None:
            raise ValueError(f"role must be one of {sorted(CLICKABLE_ROLES)}, not {role!r}")
        page = await self._page_now()
        target = page.get_by_role(aria_role, name=name, exact=True)
        await self._act(page, target.count(), f"{role} «{name}»")
        await self._do(target.first.click(), f"{role} «{name}»")
        await self._do(page.wait_for_load_state(), f"{role} «{name}»")

    async def check(self, label: str) -> None:
        """Tick the checkbox labelled exactly ``label``."""
        page = await self._page_now()
        box = page.get_by_label(label, exact=True)
        await self._act(page, box.count(), f"флажок «{label}»")
        await self._do(box.first.check(), f"флажок «{label}»")

    async def _act(self, page: Page, count: Any, what: str) -> None:
        if await self._do(count, what) == 0:
            raise UnexpectedPage(f"На странице нет элемента {what}", await summarize(page))

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
