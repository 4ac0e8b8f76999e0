"""A logged-in booking-system session per run, on a context from the shared browser pool.

Steps of one run share the session; it is opened on first use (restoring the
user's saved cookies, so a repeated booking skips the login page) and closed when
the run's task ends, whatever the outcome.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Protocol

from pydantic import BaseModel, SecretStr

from core.accounts import LoginVerdict
from core.brain import Brain, PageSnapshot, Situation
from core.browser import BrowserContext, BrowserPool, screenshot
from core.commands import Lang
from core.errors import PortalError
from core.events import ContextAcquired, PortalRetried
from core.pause import NeedsAnswer
from core.scenario import StepContext
from core.site import Catalogue, LockedOut, LoginFailed, PageSummary, PortalRetry, UnexpectedPage
from core.texts import tr
from scenarios.booking.port import BookingSession, BookingSystem
from scenarios.booking.texts import Book

__all__ = ["Credentials", "PortalAccount", "PortalWork", "SessionVault", "read_catalogue"]


class PortalAccount(BaseModel):
    """The club's shared account on the booking system (used when a user has no /login)."""

    username: str | None = None
    password: SecretStr | None = None


class Credentials(Protocol):
    @property
    def username(self) -> str: ...
    @property
    def password(self) -> SecretStr: ...


class SessionVault(Protocol):
    async def credentials(self, user_id: int) -> Credentials | None: ...
    async def session(self, user_id: int) -> dict[str, Any] | None: ...
    async def save_session(self, user_id: int, state: dict[str, Any]) -> None: ...


class PortalWork:
    def __init__(
        self,
        *,
        pool: BrowserPool,
        system: BookingSystem,
        account: PortalAccount,
        vault: SessionVault,
        brain: Brain | None = None,
    ) -> None:
        self.brain = brain  # unexpected pages and alternatives; None: they fail the step
        self._pool = pool
        self._system = system
        self._account = account
        self._vault = vault
        self._open: dict[str, tuple[AsyncExitStack, BookingSession, BrowserContext]] = {}
        self._failed_logins: dict[str, bytes] = {}  # pictures of logins that failed

    @property
    def club_account(self) -> bool:
        """Whether the club's shared account is configured."""
        return bool(self._account.username and self._account.password)

    async def personal(self, user_id: int) -> bool:
        """Whether the user's runs log in with their own account (``/login``)."""
        return await self._vault.credentials(user_id) is not None

    async def _login_for(self, ctx: StepContext[Any]) -> tuple[str, str]:
        personal = await self._vault.credentials(ctx.user_id)
        if personal is not None:
            return personal.username, personal.password.get_secret_value()
        return _club_login(self._account, ctx.tr(Book.NO_ACCOUNT))

    async def session(self, ctx: StepContext[Any]) -> BookingSession:
        opened = self._open.get(ctx.run_id)
        if opened is not None:
            return opened[1]
        username, password = await self._login_for(ctx)
        state = await self._vault.session(ctx.user_id)
        stack = AsyncExitStack()
        queued = False

        async def on_queued() -> None:
            nonlocal queued
            queued = True
            await ctx.queued()

        async def on_retry(retry: PortalRetry) -> None:
            await ctx.emit(PortalRetried(chat_id=ctx.chat_id, run_id=ctx.run_id,
                                         **retry.model_dump()))  # fmt: skip

        try:
            asked = time.perf_counter()
            context = await stack.enter_async_context(
                self._pool.context(storage_state=state, on_queued=on_queued)
            )
            waited = round((time.perf_counter() - asked) * 1000, 1)
            await ctx.emit(ContextAcquired(chat_id=ctx.chat_id, run_id=ctx.run_id,
                                           wait_ms=waited, queued=queued))  # fmt: skip
            session = self._system.open_session(
                context, username=username, password=password, on_retry=on_retry
            )
            stack.push_async_callback(session.close)
            try:
                await self._logged_in(session, ctx)
            except PortalError:
                shot = await screenshot(context)
                if shot is not None:
                    self._failed_logins[ctx.run_id] = shot
                raise
            await self._vault.save_session(ctx.user_id, await session.storage_state())
        except BaseException:
            await stack.aclose()
            raise
        self._open[ctx.run_id] = (stack, session, context)
        return session

    async def _logged_in(self, session: BookingSession, ctx: StepContext[Any]) -> None:
        """Log in; an unexpected page on the way (the rules notice) goes to the brain."""
        try:
            await session.ensure_logged_in()
        except UnexpectedPage as exc:
            if self.brain is None:
                raise

            async def probe() -> PageSnapshot | None:
                try:
                    await session.ensure_logged_in()
                except UnexpectedPage as again:
                    return _snapshot(again.summary)
                return None

            await self.brain.resolve_page(
                ctx, step="login", expected="the «Мои брони» page after logging in",
                page=_snapshot(exc.summary), driver=session, probe=probe, problem=exc.message,
            )  # fmt: skip

    @asynccontextmanager
    async def reader(self, user_id: int | None, lang: Lang) -> AsyncIterator[BookingSession]:
        """A logged-in session outside any run, for reading (the agent API's free rooms
        and bookings): the user's account as a run would use (``None``: the club's, on a
        fresh context), closed after the block. A surprising page fails it (no brain:
        there is no run to ask about it)."""
        personal = await self._vault.credentials(user_id) if user_id is not None else None
        if personal is not None:
            username, password = personal.username, personal.password.get_secret_value()
        else:
            username, password = _club_login(self._account, tr(Book.NO_ACCOUNT, lang))
        state = await self._vault.session(user_id) if user_id is not None else None
        async with self._pool.context(storage_state=state) as context:
            session = self._system.open_session(context, username=username, password=password)
            try:
                await session.ensure_logged_in()
                if user_id is not None:
                    await self._vault.save_session(user_id, await session.storage_state())
                yield session
            finally:
                await session.close()

    async def check_login(self, username: str, password: SecretStr) -> LoginVerdict:
        """Log in with these credentials on a fresh context (no saved cookies) and say what
        the portal answered. An unreachable portal is ``PortalUnavailable``; a page after the
        accepted login form (the rules notice) still means the credentials are right. The
        page goes with its context."""
        async with self._pool.context() as context:
            session = self._system.open_session(
                context, username=username, password=password.get_secret_value()
            )
            try:
                await session.ensure_logged_in()
            except LoginFailed:
                return LoginVerdict.REJECTED
            except LockedOut:
                return LoginVerdict.LOCKED
            except UnexpectedPage:
                if session.logins == 0:
                    raise
            finally:
                await session.close()
        return LoginVerdict.ACCEPTED

    async def read_catalogue(self) -> Catalogue:
        """The site's catalogue, read with the club's account on a fresh context."""
        return await read_catalogue(self._pool, self._system, self._account)

    async def pick_alternative(
        self, ctx: StepContext[Any], step: str, problem: Exception
    ) -> str | None:
        """The option id of the offered alternative the LLM brain chose instead of asking
        the user, if any."""
        if self.brain is None or not self.brain.has_llm or not isinstance(problem, NeedsAnswer):
            return None
        page = _snapshot(await (await self.session(ctx)).page_summary())
        history = [f"step {name}: done" for name in ctx.results]
        situation = Situation(
            step=step, expected="free rooms for the request", problem=problem.question.text,
            page=page, history=history, allowed=("alternative", "ask_user", "abort"),
            alternatives={o.id: o.label for o in problem.question.options}, lang=ctx.lang,
        )  # fmt: skip
        picked = await self.brain.choose_alternative(ctx, situation)
        return picked or None

    async def screenshot(self, run_id: str) -> bytes | None:
        opened = self._open.get(run_id)
        if opened is not None:
            return await screenshot(opened[2])
        return self._failed_logins.pop(run_id, None)

    async def release(self, run_id: str) -> None:
        self._failed_logins.pop(run_id, None)
        if self.brain is not None:
            self.brain.forget_run(run_id)
        opened = self._open.pop(run_id, None)
        if opened is not None:
            await opened[0].aclose()


def _club_login(account: PortalAccount, missing: str) -> tuple[str, str]:
    """The club's login; ``PortalError(missing)`` without one (the operator's fix, the
    PORTAL__USERNAME and PORTAL__PASSWORD settings, is in the README, not in chats)."""
    if account.username and account.password:
        return account.username, account.password.get_secret_value()
    raise PortalError(missing)


async def read_catalogue(
    pool: BrowserPool, system: BookingSystem, account: PortalAccount
) -> Catalogue:
    """The site's catalogue, read with the club's account on a fresh context."""
    username, password = _club_login(
        account, "no portal account: set PORTAL__USERNAME and PORTAL__PASSWORD"
    )
    async with pool.context() as context:
        session = system.open_session(context, username=username, password=password)
        try:
            await session.ensure_logged_in()
            return await session.catalogue()
        finally:
            await session.close()


def _snapshot(summary: PageSummary) -> PageSnapshot:
    return PageSnapshot.model_validate(summary.model_dump())
