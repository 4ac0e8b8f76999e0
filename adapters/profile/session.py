"""``ProfileSession``: one user's conversation with a site described by a profile (the
``scenarios.booking.port.BookingSession`` of ``ProfileSystem``).

It keeps every promise of the hand-written adapters: each step runs under
``with_retries`` (transient failures retried with backoff, then ``PortalUnavailable``);
a bounce to the login page is answered by logging in again once; a booking whose answer
was lost is looked for in «my bookings» before the form is ever sent again; the run's
mark goes into the purpose field the profile names; a brain-chosen click, and an element
the LLM picked when no locator matched, run under the network guard with the endpoints
the profile declares.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import date, time, timedelta
from typing import TypeVar

import structlog
from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from adapters.profile.bookingpage import open_booking_page, read_booking_page
from adapters.profile.caller import Caller
from adapters.profile.cancelling import Cancelling
from adapters.profile.daycall import DayCall
from adapters.profile.errors import SlowPattern
from adapters.profile.fastpath import FastPath
from adapters.profile.finding import Finder, StepGuard
from adapters.profile.form import fill_form, open_form, send_form
from adapters.profile.grid import (
    building_code,
    listed_code,
    read_buildings,
    read_catalogue,
    read_day,
)
from adapters.profile.gridhtml import day_in_html
from adapters.profile.healing import Healing
from adapters.profile.listcall import ListCall
from adapters.profile.listing import Listing
from adapters.profile.loader import LoadedProfile
from adapters.profile.login import log_in, still_logged_in
from adapters.profile.made import as_sent, read_made
from adapters.profile.navigate import Navigator
from adapters.profile.origin import on_site
from adapters.profile.picking import guarded_pick
from adapters.profile.recall import Recall
from adapters.sending import send_once
from core.brain.element import ElementPicker
from core.browser.driver import BrowserPageDriver
from core.browser.retry import RetryPolicy, with_relogin, with_retries
from core.errors import BrowserError
from core.site import Catalogue, OnRetry, OutcomeUnknown, Room
from scenarios.booking.models import Availability, Booking

__all__ = ["ProfileSession"]

T = TypeVar("T")
log = structlog.get_logger("clubman.portal")
_ANSWER_UNREAD = "Ответ сайта на бронирование не прочитан: результат неизвестен"


class ProfileSession(BrowserPageDriver):
    def __init__(
        self,
        context: BrowserContext,
        loaded: LoadedProfile,
        *,
        base_url: str,
        username: str,
        password: str,
        timeout_ms: int = 15000,
        retry: RetryPolicy | None = None,
        on_retry: OnRetry | None = None,
        healing: Healing | None = None,
        picker: ElementPicker | None = None,
        recall: Recall | None = None,
        today: Callable[[], date] = date.today,
    ) -> None:
        super().__init__(context, timeout_ms=timeout_ms, site=loaded.profile.name)
        self._today = today
        self._profile = loaded.profile
        self._base_url = base_url.rstrip("/")
        pick = None
        if picker is not None:
            went = self._where_it_went
            pick = guarded_pick(picker, self._network, self.may_change, where_it_went=went)
        network = self._network  # its routes are on only while a click or a press is guarded
        self._nav = Navigator(
            loaded,
            self._base_url,
            Finder(loaded, pick=pick, guard=StepGuard(network, self.may_change)),
            timeout_ms=timeout_ms,
            routed=lambda: network.armed,
        )
        self._username = username
        self._password = password
        self._policy = retry or RetryPolicy()
        self._on_retry = on_retry
        self._logins = 0
        self._recall = recall if recall is not None else Recall(account=username)
        self._healing = healing or Healing(None)
        self._run_mark = ""  # the booking run's mark («#…» in its purpose), for a heal's record
        self._creates = 0  # creates that may have made a booking (``creates_sent``)
        # Book by the form's own request where the profile has one (off: through the page).
        request = loaded.profile.book.request
        self.fast_path = request is not None
        caller = Caller(self._nav, context.request)  # one list of rooms for every call
        self._fast = (
            None if request is None else FastPath(self._nav, context, request, caller, self._recall)
        )
        self._listing = Listing(
            self._nav, context.request, self._recall, run=self._run, codes=self._codes,
            call=ListCall.of(self._nav, caller, account=self._recall.account),  # its call
        )  # fmt: skip
        self._day_call = DayCall.of(self._nav, caller)  # a building's day by its page's call

    def __repr__(self) -> str:
        return f"ProfileSession({self._profile.name!r}, {self._base_url!r})"

    # -- plumbing ---------------------------------------------------------------------------

    async def _run(
        self,
        what: str,
        action: Callable[[Page], Awaitable[T]],
        *,
        reads_only: bool = False,
        call: Callable[[], Awaitable[T | None]] | None = None,
    ) -> T:
        """``action`` with retries; logs in again once if the site asks for a login.
        Anything but a read may change the site (``reads_only``): «my bookings» as read is
        stale. ``call``: the site's own request, tried first in each attempt; its None is
        the page's turn (the page is opened only then)."""
        if not reads_only:
            self._changes()

        async def attempt() -> T:
            if call is not None and (called := await call()) is not None:
                return called
            return await self._healing.step(
                what, self._nav.finder, self._own_page, action, run=self._run_mark
            )

        return await with_relogin(
            self._policy, attempt, login=self._login, what=what, on_retry=self._on_retry
        )

    def _changes(self) -> None:
        self._listing.changed()

    async def _login(self) -> None:
        def sending() -> None:  # counted as sent: a refusal is a login tried all the same
            self._logins += 1
            log.info("portal.login")

        async def login(page: Page) -> None:
            await log_in(self._nav, page, self._username, self._password, sending=sending)

        await self._healing.step(
            "вход", self._nav.finder, self._own_page, login, run=self._run_mark
        )

    def _where_it_went(self, page: Page) -> bool:
        return self._nav.where_it_went(page)

    async def _buildings(self, page: Page, *, again: bool = False) -> dict[str, str]:
        """``Recall.site_buildings``, read from the site's list."""
        return await self._recall.site_buildings(lambda: read_buildings(self._nav, page), again)

    async def _codes(self, page: Page, shown: Collection[str] = ()) -> dict[str, str]:
        """Building name → code (the lists show names); the site's list is read again
        when a name ``shown`` is not in it (a building renamed since)."""
        names = await self._buildings(page)
        if any(name not in names.values() for name in shown):
            names = await self._buildings(page, again=True)
        return {name: code for code, name in names.items()}

    async def _has_cookies(self) -> bool:
        try:
            return bool(await self._context.cookies(self._base_url))
        except PlaywrightError as exc:
            raise BrowserError("could not read the browser's cookies") from exc

    # -- the API ----------------------------------------------------------------------------

    @property
    def logins(self) -> int:
        return self._logins

    @property
    def creates_sent(self) -> int:
        """How many booking creates this session sent that the site may have taken: what
        ``site check`` must clean up after whatever ``book`` then raised."""
        return self._creates

    @property
    def profile_name(self) -> str:
        return self._profile.name

    @property
    def url(self) -> str:
        return self._base_url

    async def ensure_logged_in(self, *, on_list: bool = True) -> None:
        """Reuse the context's cookies if the site takes them, else log in; then confirm
        it on «my bookings» (its call, else its page, read then so that the next read is
        where it is): any other page after logging in (a notice) is the login's
        ``UnexpectedPage``, for the brain to get past. ``on_list=False`` stops at the
        login (``clubman site check`` reads the list as a part of its own: a list the
        profile misreads is no failed login)."""
        cookies = await self._has_cookies()
        if not on_list and cookies:
            cookies = await still_logged_in(self._nav, self._context.request)
        if not cookies:
            await with_retries(self._policy, self._login, what="вход", on_retry=self._on_retry)
        self._changes()  # the site is asked, not the page shown or the list read
        if not on_list or await self._listing.called(fast=self.fast_path):
            return
        if cookies and await still_logged_in(self._nav, self._context.request):
            return  # no page needed: the first one a run loads is checked as it lands
        await self._run("вход", self._listing.on_page, reads_only=True)

    async def catalogue(self) -> Catalogue:
        """The buildings the site lists, their rooms from today's grids, the profile's
        rules and the profile's words for the buildings."""

        async def read(page: Page) -> Catalogue:
            names = await self._buildings(page, again=True)
            return await read_catalogue(
                self._nav, page, names, day=self._today(), timeout_ms=self._timeout_ms
            )

        return await self._run("каталог аудиторий", read, reads_only=True)

    async def availability(self, building: str, day: date) -> Availability:
        async def call(names: dict[str, str]) -> Availability | None:
            """The day by its page's call, else from its page's HTML; None: the page."""
            if not self.fast_path or listed_code(names, building) is None:
                return None
            code = building_code(names, building)
            if self._day_call is not None:  # a day its page's scripts fetch: not in the HTML
                return await self._day_call.read(code, names[code], day)
            api = self._context.request
            return await day_in_html(self._nav, api, building=code, name=names[code], day=day)

        async def read(page: Page) -> Availability:
            names = await self._buildings(page)
            if listed_code(names, building) is None:
                names = await self._buildings(page, again=True)
            code = building_code(names, building)
            if called := await call(names):
                return called
            return await read_day(self._nav, page, building=code, name=names[code], day=day,
                                  timeout_ms=self._timeout_ms)  # fmt: skip

        # With the site's buildings known, the call needs no page at all.
        return await self._run(
            "сетка аудиторий", read, reads_only=True, call=lambda: call(self._recall.buildings)
        )

    async def book(
        self,
        *,
        room: Room,
        day: date,
        start: time,
        end: time,
        purpose: str,
        attendees: int | None = None,
    ) -> Booking:
        """Book through the form; the number comes from the page the form leads to.

        A lost answer (``OutcomeUnknown``) or a ``SlotTaken`` is first looked for in «my
        bookings» (it may be ours); a lost answer not listed is sent again only when the
        day shows the room still free (``send_once``)."""
        self._run_mark = "#" + purpose.rpartition("#")[2] if "#" in purpose else ""
        values = {
            "room": room.number,
            "room_id": room.id,
            "building": room.building,
            "date": day,
            "start": start,
            "end": end,
            "purpose": purpose,
            "attendees": "" if attendees is None else attendees,
        }

        sent_fast = False

        async def call() -> str | None:
            nonlocal sent_fast
            if self._fast is None or not self.fast_path:
                return None
            try:
                fast = await self._fast.send(values)
            except OutcomeUnknown:
                self._creates += 1
                raise
            except SlowPattern as exc:  # the answer unread: the booking may be made
                self._creates += 1
                raise OutcomeUnknown(_ANSWER_UNREAD, hint=exc.message) from exc
            sent_fast = fast is not None
            self._creates += sent_fast
            return fast

        async def send(page: Page) -> str | None:
            await open_form(self._nav, page, values)
            submit = await fill_form(self._nav, page, values)
            self._creates += 1
            try:
                return await send_form(self._nav, page, submit, values)
            except SlowPattern as exc:  # sent, its answer unread: the booking may be made
                raise OutcomeUnknown(_ANSWER_UNREAD, hint=exc.message) from exc

        sent = await send_once(
            lambda: self._run("бронирование", send, call=call),
            lambda: self._listed(room, day, start, end, purpose),
            lambda: self.availability(room.building, day),
            room=room,
            start=start,
            end=end,
            attempts=self._policy.attempts,
            delay=self._policy.delay,
        )
        if isinstance(sent, Booking):  # made already: found in «my bookings»
            self._listing.made(sent.number)
            return sent
        number = sent
        self._listing.made(number)

        def made(names: dict[str, str]) -> Booking:
            return as_sent(number, room, day, start, end, purpose, buildings=names)

        async def confirm(page: Page) -> Booking:
            sent = made(await self._buildings(page))
            if sent_fast:
                return sent
            return await read_made(self._nav, page, number, await self._codes(page), sent=sent)

        async def confirmed() -> Booking | None:  # as sent, with the buildings known: no page
            names = self._recall.buildings
            return made(names) if sent_fast and names else None

        booking = await self._run("подтверждение брони", confirm, reads_only=True, call=confirmed)
        self._recall.pages.remember(booking)
        return booking.model_copy(update={"room_id": room.id})

    async def _listed(
        self, room: Room, day: date, start: time, end: time, purpose: str
    ) -> Booking | None:
        wanted = (room.building, room.number, day, start, end, " ".join(purpose.split()))
        for b in await self._listing.bookings(fast=self.fast_path):
            if (b.building, b.room, b.day, b.start, b.end, " ".join(b.purpose.split())) == wanted:
                return b
        return None

    async def my_bookings(self) -> list[Booking]:
        listed = await self._listing.checked(fast=self.fast_path)
        return listed + await self._past_the_list({b.number for b in listed})

    async def _past_the_list(self, listed: set[str]) -> list[Booking]:
        """The bookings a list of the next days only (``my_bookings.days``) cannot show,
        of those the account made or read on their pages: each read on its own page, so
        that one past the list's last day is taken neither as missing nor as cancelled
        (a reminder dropped, a booking made said unconfirmed). One its page says is gone
        (missing, cancelled) is forgotten."""
        days = self._profile.my_bookings.days
        if days is None:
            return []
        # From the list's last day: the site's «today» may be a day behind ours.
        first = self._today() + timedelta(days=days - 1)
        found = []
        for known in self._recall.pages.from_day(first):
            if known.number in listed:
                continue

            async def read(page: Page, number: str = known.number) -> Booking | None:
                if not await open_booking_page(self._nav, page, number):
                    return None
                codes = await self._codes(page)
                return await read_booking_page(self._nav, page, number, codes, load=False)

            paged = await self._run("страница брони", read, reads_only=True)
            if paged is None or not paged.is_live:
                self._recall.forget(known.number)
            else:
                self._recall.pages.remember(paged)
                found.append(paged.model_copy(update={"room_id": known.room_id}))
        return found

    async def booking_page(self, number: str) -> Booking:
        """Booking ``number`` as its own page (``booking_page.url``) shows it."""

        async def read(page: Page) -> Booking:
            return await read_booking_page(self._nav, page, number, await self._codes(page))

        return await self._run("страница брони", read, reads_only=True)

    async def cancel(self, number: str) -> None:
        """Cancel booking ``number`` (``Cancelling``), retried like a read."""
        self._listing.cancelled(number)
        await self._run("отмена брони", Cancelling(self._nav, self._recall, number))
        self._recall.forget(number)

    def may_change(self, step: str) -> tuple[str, ...]:
        """The addresses the profile declares for ``step`` (``may_change``), on the site."""
        declared = self._profile.may_change.get(step, ())  # type: ignore[call-overload]
        return tuple(on_site(self._base_url, path) for path in declared)

    async def _press(self, role: str, name: str, *, step: str, what: str) -> None:
        self._changes()  # a brain-chosen press may change the site: «my bookings» is stale
        await super()._press(role, name, step=step, what=what)
