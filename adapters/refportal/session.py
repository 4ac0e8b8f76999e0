"""``PortalSession``: one user's conversation with the reference portal on one browser page
(the ``scenarios.booking.port.BookingSession`` of ``RefPortal``).

Every public method runs its page steps under ``with_retries`` (transient failures
retried with backoff, then ``PortalUnavailable``); a bounce to the login page is
answered by logging in again once and repeating the action, a second bounce is
``SessionExpired``. A booking POST is never repeated when its outcome is unknown.
Not safe for concurrent use: one session drives one page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, time
from time import monotonic as time_now
from typing import Any, TypeVar

import structlog
from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from adapters.refportal.pages.base import land, path_of
from adapters.refportal.pages.book import BookPage, read_booking
from adapters.refportal.pages.login import LoginPage
from adapters.refportal.pages.my import MY_PATH, MyBookingsPage
from adapters.refportal.pages.rooms import RoomsPage
from adapters.refportal.site import MAY_CHANGE, RULES
from adapters.sending import send_once
from core.browser.controls import CLICKABLE_ROLES, press
from core.browser.guard import NetworkGuard
from core.browser.pages import close_page, open_page, storage_state
from core.browser.retry import RetryPolicy, Transient, translate, with_relogin, with_retries
from core.browser.summary import summarize
from core.errors import BrowserError
from core.site import (
    Building,
    Catalogue,
    OnRetry,
    PageSummary,
    PortalUnavailable,
    Room,
    UnexpectedPage,
)
from scenarios.booking.errors import BookingRejected
from scenarios.booking.models import Availability, Booking

__all__ = ["PortalSession"]

_MY_FRESH_SECONDS = 2.0  # how old a «Мои брони» page may be and still be read in place
T = TypeVar("T")
log = structlog.get_logger("clubman.portal")


class PortalSession:
    def __init__(
        self,
        context: BrowserContext,
        *,
        base_url: str,
        username: str,
        password: str,
        timeout_ms: int = 15000,
        retry: RetryPolicy | None = None,
        on_retry: OnRetry | None = None,
    ) -> None:
        self._context = context
        self._on_retry = on_retry
        self._base_url = base_url.rstrip("/")
        self._username = username
        self._password = password
        self._timeout_ms = timeout_ms
        self._policy = retry or RetryPolicy()
        self._page: Page | None = None
        self._network = NetworkGuard(context)  # armed by the brain's clicks (see _own_page)
        self._codes: dict[str, str] = {}  # building name → code, learnt from «Корпус»
        self._logins = 0  # how many times the login form was sent
        # When «Мои брони» was last loaded on the page by nothing but reads (see _my_is_fresh).
        self._my_loaded_at: float | None = None

    def __repr__(self) -> str:
        return f"PortalSession(base_url={self._base_url!r}, username={self._username!r})"

    async def __aenter__(self) -> PortalSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- plumbing ---------------------------------------------------------------------------

    async def _page_now(self) -> Page:
        if self._page is None or self._page.is_closed():
            self._page = await open_page(
                self._context, self._network, timeout_ms=self._timeout_ms, site="the portal"
            )
        return self._page

    async def _own_page(self) -> Page:
        """The page for the session's own next step: first the guard a brain-chosen click
        left armed comes off (``NetworkGuard.lift``; ``RequestBlocked`` for a late try)."""
        await self._network.lift(self._page)
        return await self._page_now()

    async def _run(
        self, what: str, action: Callable[[Page], Awaitable[T]], *, reads_only: bool = False
    ) -> T:
        """``action`` with retries; logs in again once if the portal sends us to /login.
        Anything but a read makes the «Мои брони» on the page stale (``reads_only``)."""
        if not reads_only:
            self._my_loaded_at = None

        async def attempt() -> T:
            return await action(await self._own_page())

        return await with_relogin(
            self._policy, attempt, login=self._login, what=what, on_retry=self._on_retry
        )

    async def _login(self) -> None:
        login = LoginPage(await self._own_page(), self._base_url)
        if not await login.open():
            return  # the portal says we are logged in already
        self._logins += 1
        log.info("portal.login")
        await login.submit(self._username, self._password)

    async def _learn_buildings(self, rooms: RoomsPage) -> None:
        self._codes = {name: code for code, name in (await rooms.buildings()).items()}

    def _my_is_fresh(self, page: Page) -> bool:
        """«Мои брони» is on the page, loaded moments ago with only reads since (so it
        shows everything this session did): read it where it is instead of loading it."""
        loaded = self._my_loaded_at
        return (
            loaded is not None
            and path_of(page) == MY_PATH
            and time_now() - loaded < _MY_FRESH_SECONDS
        )

    async def _has_cookies(self) -> bool:
        try:
            return bool(await self._context.cookies(self._base_url))
        except PlaywrightError as exc:
            raise BrowserError("could not read the browser's cookies") from exc

    # -- the API ----------------------------------------------------------------------------

    @property
    def logins(self) -> int:
        return self._logins

    async def ensure_logged_in(self) -> None:
        """Reuse the context's cookies if the portal accepts them, else log in.

        Without any cookie for the portal the login form is opened straight away (no
        detour through a page that would only bounce). A login made by this call ends
        on «Мои брони», so that page is checked where it is rather than loaded again.
        """
        logins_before = self._logins
        if not await self._has_cookies():
            await with_retries(self._policy, self._login, what="вход", on_retry=self._on_retry)

        async def check(page: Page) -> None:
            self._my_loaded_at = None  # until this attempt has read it
            my = MyBookingsPage(page, self._base_url)
            if self._logins > logins_before and path_of(page) == MY_PATH:
                await my.check()
            else:
                await my.open()
            self._my_loaded_at = time_now()

        await self._run("вход", check, reads_only=True)

    async def catalogue(self) -> Catalogue:
        """Every building on the «Корпус» list and its rooms, read from today's grids."""

        async def read(page: Page) -> Catalogue:
            rooms = RoomsPage(page, self._base_url)
            await rooms.open()
            await self._learn_buildings(rooms)
            buildings = [Building(code=code, name=name) for name, code in self._codes.items()]
            found: list[Room] = []
            for building in buildings:
                day = date.today()
                code, name = await rooms.show(building.code, day)
                grid = await rooms.read_grid(
                    building=code, name=name, day=day, timeout_ms=self._timeout_ms
                )
                found += [slot.room for slot in grid.rooms]
            return Catalogue(
                system="refportal", buildings=tuple(buildings), rooms=tuple(found), rules=RULES
            )

        return await self._run("каталог аудиторий", read, reads_only=True)

    async def availability(self, building: str, day: date) -> Availability:
        """The grid of ``building`` (code or name) on ``day``, read from the rooms page."""

        async def read(page: Page) -> Availability:
            rooms = RoomsPage(page, self._base_url)
            if not await rooms.is_current():
                await rooms.open()
            await self._learn_buildings(rooms)
            code, name = await rooms.show(building, day)
            return await rooms.read_grid(
                building=code, name=name, day=day, timeout_ms=self._timeout_ms
            )

        return await self._run("сетка аудиторий", read)

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
        """Book through the form; the number comes from the confirmation page.

        A POST whose answer is lost (``OutcomeUnknown``) is never simply sent again
        (``send_once``): «Мои брони» is read first, and a listed booking of this room,
        time and purpose is the answer; otherwise it is sent again only when the day's
        grid shows the room still free, and is ``OutcomeUnconfirmed`` when it does not.
        A ``SlotTaken`` is checked the same way: it may be our own booking (a lost answer,
        or the same request made again), which is then the answer.
        """

        room_id = room.id

        async def send(page: Page) -> str:
            form = BookPage(page, self._base_url)
            await form.open(room_id=room_id, day=day, start=start, end=end)
            await form.fill(day=day, start=start, end=end, purpose=purpose, attendees=attendees)
            return await form.submit()

        sent = await send_once(
            lambda: self._run("бронирование", send),
            lambda: self._listed(room_id, day, start, end, purpose),
            lambda: self.availability(room.building, day),
            room=room,
            start=start,
            end=end,
            attempts=self._policy.attempts,
            delay=self._policy.delay,
        )
        if isinstance(sent, Booking):  # made already: found in «my bookings»
            return sent
        number = sent

        async def confirm(page: Page) -> Booking:
            fallback = room_id.rpartition("-")[0] or room_id
            shown = None
            if path_of(page) == f"/booking/{number}":  # the page the form led to
                shown = await read_booking(
                    page, number=number, codes=self._codes, fallback_building=fallback
                )
            if shown is None or shown.status != "active":  # not (fully) loaded: load it
                await land(page, await page.goto(f"{self._base_url}/booking/{number}"))
                shown = await read_booking(
                    page, number=number, codes=self._codes, fallback_building=fallback
                )
            if shown is None:
                raise UnexpectedPage(
                    f"Не удалось прочитать бронь № {number}", await summarize(page)
                )
            return shown

        return await self._run("подтверждение брони", confirm)

    async def _listed(
        self, room_id: str, day: date, start: time, end: time, purpose: str
    ) -> Booking | None:
        """The active booking of this room, time and purpose in «Мои брони», if any."""
        building, _, number = room_id.rpartition("-")
        wanted = " ".join(purpose.split())
        for booking in await self.my_bookings():
            if (
                (booking.building, booking.room, booking.day) == (building, number, day)
                and (booking.start, booking.end) == (start, end)
                and " ".join(booking.purpose.split()) == wanted
            ):
                return booking
        return None

    async def my_bookings(self) -> list[Booking]:
        async def read(page: Page) -> list[Booking]:
            loaded = self._my_loaded_at if self._my_is_fresh(page) else None
            self._my_loaded_at = None  # until this attempt has read it
            my = MyBookingsPage(page, self._base_url)
            if loaded is not None:
                await my.check()
            else:
                await my.open()
                loaded = time_now()
            found = await my.read(self._codes)
            self._my_loaded_at = loaded
            if any(b.building == b.building_name for b in found):  # a name we cannot map yet
                rooms = RoomsPage(page, self._base_url)
                await rooms.open()
                await self._learn_buildings(rooms)
                found = [self._with_code(b) for b in found]
            return found

        return await self._run("мои брони", read, reads_only=True)

    def _with_code(self, booking: Booking) -> Booking:
        code = self._codes.get(booking.building_name, booking.building)
        return booking.model_copy(update={"building": code, "room_id": f"{code}-{booking.room}"})

    async def cancel(self, number: str) -> None:
        """«Отменить» in the row of ``number``, accepting the confirm() dialog; then verify.

        Repeating a cancellation is harmless, so this is retried like a read; a booking
        that is not listed (and was not cancelled by this call) is ``BookingRejected``.
        """
        pressed = False

        async def cancel(page: Page) -> None:
            nonlocal pressed
            my = MyBookingsPage(page, self._base_url)
            await my.open()
            if not await my.has(number):
                if pressed:
                    return  # an earlier attempt cancelled it
                raise BookingRejected(
                    f"Бронь № {number} не найдена среди активных броней", code="not_found"
                )
            pressed = True
            question = await my.cancel(number)
            log.info("portal.cancelled", number=number, question=question)

        await self._run("отмена брони", cancel)

    async def page_summary(self) -> PageSummary:
        return await summarize(await self._page_now())

    def may_change(self, step: str) -> tuple[str, ...]:
        """The portal endpoints a brain-chosen action in ``step`` may send a change to."""
        return tuple(f"{self._base_url}{path}" for path in MAY_CHANGE.get(step, ()))

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

        async def act() -> None:
            if not await press(page, self._network, role, name, may_change=self.may_change(step)):
                raise UnexpectedPage(f"На странице нет элемента {what}", await summarize(page))
            await page.wait_for_load_state()

        await self._act(act, what)

    async def _act(self, action: Callable[[], Awaitable[None]], what: str) -> None:
        """One user-like action, not retried (it may not be safe to repeat)."""
        self._my_loaded_at = None
        try:
            await translate(action)
        except Transient as exc:
            raise PortalUnavailable(f"Портал не ответил ({what}): {exc}") from exc

    async def storage_state(self) -> dict[str, Any]:
        """Cookies and local storage of the context, to be saved (encrypted) for next time."""
        return await storage_state(self._context)

    async def close(self) -> None:
        """Close this session's page (the context belongs to the caller)."""
        page, self._page = self._page, None
        await close_page(page)
