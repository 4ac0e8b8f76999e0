"""«My bookings» as one profile session reads it: by its page's own call (``ListCall``),
right after the session booked as it confirms the bookings made (``confirm``), or on its
page; answered again from the read moments before when nothing changed since
(``KnownList``), and read where it is shown when the page still shows it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from time import monotonic as time_now
from typing import Protocol, TypeVar

from playwright.async_api import APIRequestContext, Page

from adapters.profile.bookings import MyList
from adapters.profile.confirm import confirming_drawn
from adapters.profile.known import KnownList
from adapters.profile.listcall import ListCall
from adapters.profile.listhtml import confirming_list
from adapters.profile.navigate import Navigator
from adapters.profile.recall import Recall
from scenarios.booking.models import Booking

__all__ = ["Listing"]

T = TypeVar("T")
_MY_FRESH_SECONDS = 2.0  # how old a «my bookings» read may be and still be read in place


class Run(Protocol):
    """The session's ``_run``: an action on the page, with its retries."""

    def __call__(
        self, what: str, action: Callable[[Page], Awaitable[T]], *, reads_only: bool = False
    ) -> Awaitable[T]: ...


# The site's building codes by the names a page shows (``ProfileSession._codes``).
Codes = Callable[[Page, Collection[str]], Awaitable[dict[str, str]]]


class Listing:
    """One session's reads of «my bookings»."""

    def __init__(
        self,
        nav: Navigator,
        api: APIRequestContext,
        recall: Recall,
        *,
        run: Run,
        codes: Codes,
        call: ListCall | None,
    ) -> None:
        self._nav, self._api, self._recall = nav, api, recall
        self._run, self._codes, self._call = run, codes, call
        # Read moments ago with nothing but reads since: read where it is shown.
        self._read_at: float | None = None
        self._known = KnownList()  # and the list itself stands for a few seconds more
        self._unchecked: set[str] = set()  # booked by this session, not yet seen listed

    def changed(self) -> None:
        """The session did what may change the site: the list as read is stale."""
        self._read_at = None
        self._known.forget()

    def made(self, number: str) -> None:
        self._unchecked.add(number)

    def cancelled(self, number: str) -> None:
        self._unchecked.discard(number)

    async def checked(self, *, fast: bool) -> list[Booking]:
        """The list; right after booking, once, as it confirms the bookings made (its
        HTML on the fast path, ``fast``; else its page as first drawn: ``confirm``)."""
        unchecked, self._unchecked = self._unchecked, set()
        if unchecked and self._known.bookings() is None:
            if fast:
                confirmed = await confirming_list(self._nav, self._api, self._recall, unchecked)
            else:
                confirmed = await self._run(
                    "мои брони",
                    lambda page: confirming_drawn(self._nav, page, self._recall, unchecked),
                    reads_only=True,
                )
            if confirmed is not None:
                return confirmed
        return await self.bookings(fast=fast)

    async def bookings(self, *, fast: bool) -> list[Booking]:
        """The site's list, or as read moments ago with nothing changed since."""
        known = self._known.bookings()
        if known is None:
            known = await self._read(fast=fast)
            self._known.keep(known)
        return known

    async def called(self, *, fast: bool) -> bool:
        """Whether the list's call answers (the login's check on the fast path)."""
        return fast and self._call is not None and await self._call.read() is not None

    async def _read(self, *, fast: bool) -> list[Booking]:
        async def codes(shown: set[str]) -> dict[str, str]:
            return await self._run("мои брони", lambda p: self._codes(p, shown), reads_only=True)

        call = self._call if fast else None  # none, or unlike it: the page
        if call is not None and (called := await call.in_full(codes)) is not None:
            return called

        async def read(page: Page) -> list[Booking]:
            mine = await self.on_page(page)
            return await mine.in_full(lambda shown: self._codes(page, shown))

        return await self._run("мои брони", read, reads_only=True)

    async def on_page(self, page: Page) -> MyList:
        """The list on the page: read where it is if it was read moments ago with only
        reads since (and is still shown), else opened."""
        mine = MyList(self._nav, page, self._recall)
        read_at, self._read_at = self._read_at, None  # until this attempt has read it
        opened = self._nav.profile.my_bookings.open.url
        if (
            read_at is not None
            and time_now() - read_at < _MY_FRESH_SECONDS
            and opened is not None
            and self._nav.shows(page, opened)
        ):
            await mine.read()
        else:
            await mine.open()
            read_at = time_now()
        self._read_at = read_at
        return mine
