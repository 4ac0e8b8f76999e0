"""Where the events scenarios get their ``EventSystem``: an event site (an adapter's,
``EventSite``) logged in as the club's account on a context of the shared browser pool,
one per run, opened on first use and closed when the run's task ends."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any, Protocol

from pydantic import BaseModel, SecretStr

from core.browser import BrowserContext, BrowserPool
from core.errors import ScenarioError
from core.scenario import StepContext
from scenarios.events.port import EventSystem
from scenarios.events.texts import EventTexts

__all__ = ["ClubLogin", "EventDesk", "EventSite"]


class EventSite(Protocol):
    """A site with events, as its adapter opens it."""

    async def events(self, context: BrowserContext, *, username: str, password: str) -> EventSystem:
        """Log in on ``context`` and answer the club's events there."""
        ...


class ClubLogin(BaseModel):
    """The club's account on the site: events are the club's, made by its account."""

    username: str | None = None
    password: SecretStr | None = None


class EventDesk:
    def __init__(self, *, pool: BrowserPool, site: EventSite, login: ClubLogin) -> None:
        self._pool = pool
        self._site = site
        self._login = login
        self._open: dict[str, tuple[AsyncExitStack, EventSystem]] = {}

    async def system(self, ctx: StepContext[Any]) -> EventSystem:
        """The run's logged-in events (the same for all its steps)."""
        opened = self._open.get(ctx.run_id)
        if opened is not None:
            return opened[1]
        if not (self._login.username and self._login.password):
            raise ScenarioError(ctx.tr(EventTexts.NO_ACCOUNT))
        stack = AsyncExitStack()
        try:
            context = await stack.enter_async_context(self._pool.context(on_queued=ctx.queued))
            system = await self._site.events(
                context,
                username=self._login.username,
                password=self._login.password.get_secret_value(),
            )
        except BaseException:
            await stack.aclose()
            raise
        self._open[ctx.run_id] = (stack, system)
        return system

    async def release(self, run_id: str) -> None:
        opened = self._open.pop(run_id, None)
        if opened is not None:
            await opened[0].aclose()
