"""Indico as an event site: logs the club's account in on a browser context, finds the
category the account may create events in, and answers there with the events port
(``IndicoEventSystem``).

The category is found, not configured: ``GET /category/<id>/info`` lists a category's
subcategories with ``can_create_events`` for the logged-in user; the club's category is
the topmost one where that holds (an account allowed everywhere gets the root).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from playwright.async_api import BrowserContext

from adapters.indico.api import login, session_token
from adapters.indico.errors import NotAllowed
from adapters.indico.event_system import IndicoEventSystem, translated
from adapters.indico.events import IndicoEvents
from adapters.indico.pages import IndicoPages
from adapters.indico.session import LoginFlow

__all__ = ["IndicoEventSite", "club_category"]

_MOST_CATEGORIES = 200  # a walk that reads more than this is not a club's site


async def club_category(pages: IndicoPages) -> int:
    """The topmost category the logged-in account may create events in."""
    queue: deque[int] = deque([0])
    read = 0
    while queue and read < _MOST_CATEGORIES:
        data: Any = await pages.get_json(f"/category/{queue.popleft()}/info", {})
        read += 1
        here = data.get("category", {}) if isinstance(data, dict) else {}
        if here.get("can_create_events"):
            return int(here["id"])
        for child in data.get("subcategories", []) if isinstance(data, dict) else []:
            if child.get("can_create_events"):
                return int(child["id"])
            if child.get("has_children"):
                queue.append(int(child["id"]))
    raise NotAllowed("the club's account may create events in no category", status=None)


class IndicoEventSite:
    """The club's events on the Indico at ``url``; times are in ``timezone``."""

    def __init__(
        self,
        url: str,
        *,
        timezone: str,
        login_flow: LoginFlow = login,
        timeout_s: float = 30,
    ) -> None:
        self.url = url.rstrip("/")
        self._timezone = timezone
        self._login = login_flow
        self._timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"IndicoEventSite({self.url!r})"

    async def events(
        self, context: BrowserContext, *, username: str, password: str
    ) -> IndicoEventSystem:
        async with translated():
            page = await context.new_page()
            try:
                await self._login(page, self.url, username, password)
            finally:
                await page.close()
            token = await session_token(context, self.url, timeout_s=self._timeout_s)
            pages = IndicoPages(context.request, self.url, token, timeout_s=self._timeout_s)
            category = await club_category(pages)
            events = IndicoEvents(
                context.request,
                self.url,
                token,
                category_id=category,
                timezone=self._timezone,
                timeout_s=self._timeout_s,
            )
            return IndicoEventSystem(events)
