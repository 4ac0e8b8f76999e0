"""The page half of a site session: the one browser page a session's own steps use, and
the brain's hand on it (``core.brain.PageDriver``).

When a step surprises a scenario its brain looks at that page (``page_summary``) and acts
on it by the handle the summary marked for that exact role and name (``click``/``check``):
no fuzzy matching, so it cannot press a look-alike button, and under the network guard
with only what ``may_change`` declares for the step, so it cannot change anything else.
A session subclasses it and says what its site lets a brain-chosen press change.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import BrowserContext, Page

from core.browser.controls import CLICKABLE_ROLES, press
from core.browser.guard import NetworkGuard
from core.browser.pages import close_page, open_page, storage_state
from core.browser.retry import Transient, translate
from core.browser.summary import summarize
from core.site import PageSummary, PortalUnavailable, UnexpectedPage

__all__ = ["BrowserPageDriver"]


class BrowserPageDriver:
    """One page on the caller's context, opened on first use and closed by ``close``
    (the context belongs to the caller); ``site`` names it in a failure to open it."""

    def __init__(self, context: BrowserContext, *, timeout_ms: float, site: str) -> None:
        self._context = context
        self._timeout_ms = timeout_ms
        self._site = site
        self._page: Page | None = None
        self._network = NetworkGuard(context)  # armed by the brain's presses (see _own_page)

    async def _page_now(self) -> Page:
        if self._page is None or self._page.is_closed():
            self._page = await open_page(
                self._context, self._network, timeout_ms=self._timeout_ms, site=self._site
            )
        return self._page

    async def _own_page(self) -> Page:
        """The page for the session's own next step: first the guard a brain-chosen
        press left armed comes off (``NetworkGuard.lift``)."""
        await self._network.lift(self._page)
        return await self._page_now()

    async def page_summary(self) -> PageSummary:
        return await summarize(await self._page_now())

    def may_change(self, step: str) -> tuple[str, ...]:
        """The addresses a brain-chosen press in ``step`` may send a change to: none
        unless the site's session declares some."""
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
        """Press once and wait for the page it leads to: never retried (it may not be
        safe to repeat). ``UnexpectedPage`` when the page has no such control,
        ``PortalUnavailable`` when the site did not answer."""
        page, may_change = await self._page_now(), self.may_change(step)

        async def act() -> None:
            if not await press(page, self._network, role, name, may_change=may_change):
                raise UnexpectedPage(f"На странице нет элемента {what}", await summarize(page))
            await page.wait_for_load_state()

        try:
            await translate(act)
        except Transient as exc:
            raise PortalUnavailable(f"Сайт не ответил ({what}): {exc}") from exc

    async def storage_state(self) -> dict[str, Any]:
        """Cookies and local storage of the context, to be saved (encrypted) for next time."""
        return await storage_state(self._context)

    async def close(self) -> None:
        """Close this session's page."""
        page, self._page = self._page, None
        await close_page(page)
