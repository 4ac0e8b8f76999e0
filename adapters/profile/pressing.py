"""A brain-chosen click on a profile's site: the control the page summary names, pressed
under the network guard, once (it may not be safe to repeat)."""

from __future__ import annotations

from playwright.async_api import Page

from core.browser.controls import press
from core.browser.guard import NetworkGuard
from core.browser.retry import Transient, translate
from core.browser.summary import summarize
from core.site import PortalUnavailable, UnexpectedPage

__all__ = ["press_control"]


async def press_control(
    page: Page, network: NetworkGuard, role: str, name: str, *,
    may_change: tuple[str, ...], what: str,
) -> None:  # fmt: skip
    """Press ``role`` «``name``» and wait for the page it leads to; ``UnexpectedPage``
    when the page has no such control, ``PortalUnavailable`` when the site did not answer."""

    async def act() -> None:
        if not await press(page, network, role, name, may_change=may_change):
            raise UnexpectedPage(f"На странице нет элемента {what}", await summarize(page))
        await page.wait_for_load_state()

    try:
        await translate(act)
    except Transient as exc:
        raise PortalUnavailable(f"Сайт не ответил ({what}): {exc}") from exc
