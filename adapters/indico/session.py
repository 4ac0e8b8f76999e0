"""``IndicoSession``: one user's conversation with Indico (the port's ``BookingSession``).

The login goes through Indico's login page in the browser (``login_flow``, the local
form by default; an SSO flow can be passed instead); everything else calls Indico's JSON
endpoints with that context's cookies. Reads are retried with backoff on 5xx/timeouts;
a lost session is answered by one re-login; a create whose answer was lost is sent again
only as ``adapters.sending.send_once`` allows (Indico's create is not idempotent).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import TypeVar

import structlog
from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from adapters.indico import errors as ie
from adapters.indico import mapping
from adapters.indico import models as im
from adapters.indico.api import IndicoClient, resume
from adapters.sending import send_once
from core.browser.driver import BrowserPageDriver
from core.browser.retry import RetryPolicy, retried
from core.site import Catalogue, OnRetry, OutcomeUnknown, PortalUnavailable, Room, SessionExpired
from scenarios.booking.errors import BookingRejected
from scenarios.booking.models import Availability, Booking, RoomAvailability

__all__ = ["IndicoSession", "LoginFlow"]

T = TypeVar("T")
LoginFlow = Callable[[Page, str, str, str], Awaitable[IndicoClient]]
log = structlog.get_logger("clubman.indico")


def _same(text: str) -> str:
    return " ".join(text.split())


class IndicoSession(BrowserPageDriver):
    """Its page is the login's, and the brain's when a step surprises the scenario; a
    brain-chosen press may change nothing (``may_change``): Indico is changed through its
    JSON API by the session alone."""

    def __init__(
        self,
        context: BrowserContext,
        *,
        base_url: str,
        username: str,
        password: str,
        login_flow: LoginFlow,
        retry: RetryPolicy | None = None,
        on_retry: OnRetry | None = None,
        timeout_s: float = 30,
    ) -> None:
        super().__init__(context, timeout_ms=timeout_s * 1000, site="Indico")
        self._base_url = base_url.rstrip("/")
        self._username = username
        self._password = password
        self._login_flow = login_flow
        self._policy = retry or RetryPolicy()
        self._on_retry = on_retry
        self._timeout_s = timeout_s
        self._client: IndicoClient | None = None
        self._indico: im.Catalogue | None = None  # every room, for naming bookings
        self._logins = 0

    def __repr__(self) -> str:
        return f"IndicoSession(base_url={self._base_url!r}, username={self._username!r})"

    # -- plumbing ---------------------------------------------------------------------------

    @property
    def logins(self) -> int:
        return self._logins

    async def _login(self) -> IndicoClient:
        async def send() -> IndicoClient:
            page = await self._own_page()
            self._logins += 1
            log.info("indico.login")
            return await self._login_flow(page, self._base_url, self._username, self._password)

        self._client = await self._retried(send, what="вход")
        return self._client

    async def _retried(self, action: Callable[[], Awaitable[T]], *, what: str) -> T:
        """``action`` again on Indico's transient failures (``SystemUnavailable``) until the
        policy runs out; the last one is raised as it is (``mapping`` makes it the port's
        ``PortalUnavailable``)."""
        return await retried(
            self._policy, action, what=what, on_retry=self._on_retry, when=ie.SystemUnavailable
        )

    async def _client_now(self) -> IndicoClient:
        """The logged-in client: saved cookies if Indico still knows them, else the form."""
        if self._client is not None:
            return self._client
        try:
            has_cookies = bool(await self._context.cookies(self._base_url))
        except PlaywrightError:
            has_cookies = False
        if has_cookies:
            try:
                self._client = await self._retried(
                    lambda: resume(self._context, self._base_url, timeout_s=self._timeout_s),
                    what="вход",
                )
                return self._client
            except ie.SessionLost:
                pass
        return await self._login()

    async def _run(
        self, what: str, call: Callable[[IndicoClient], Awaitable[T]], *, retry: bool = True
    ) -> T:
        """``call`` on the logged-in client (with retries unless ``retry`` is False); one
        re-login when Indico has forgotten the session; Indico's errors → the port's."""
        relogged = False
        while True:
            try:
                client = await self._client_now()
                if not retry:
                    return await call(client)
                return await self._retried(partial(call, client), what=what)
            except ie.SessionLost as exc:
                if relogged:
                    raise SessionExpired(
                        f"Сеанс Indico истёк снова ({what})", hint="попробуйте ещё раз"
                    ) from exc
                relogged = True
                log.info("indico.login_needed", action=what)
                self._client = None
                await self._guard(self._login)
            except ie.IndicoError as exc:
                raise mapping.port_error(exc) from exc

    async def _guard(self, action: Callable[[], Awaitable[T]]) -> T:
        try:
            return await action()
        except ie.IndicoError as exc:
            raise mapping.port_error(exc) from exc

    async def _rooms(self, *, fresh: bool = False) -> im.Catalogue:
        if self._indico is None or fresh:
            self._indico = await self._run("каталог аудиторий", lambda c: c.catalogue())
        return self._indico

    # -- the port ---------------------------------------------------------------------------

    async def ensure_logged_in(self) -> None:
        await self._run("вход", lambda c: c.refresh_user())

    async def catalogue(self) -> Catalogue:
        return mapping.catalogue(await self._rooms(fresh=True), read_at=datetime.now().astimezone())

    async def availability(self, building: str, day: date) -> Availability:
        """Every bookable room of ``building`` (code or name) with what holds it on ``day``."""
        known = mapping.catalogue(await self._rooms())
        found = known.building(building) or next(
            (b for b in known.buildings if b.name.casefold() == building.casefold()), None
        )
        if found is None:
            raise BookingRejected(f"В Indico нет корпуса «{building}»", code="unknown_building")
        rooms = known.rooms_in(found.code)
        rules = known.rules

        async def read(client: IndicoClient) -> tuple[str, list[im.RoomAvailability]]:
            ids = [int(r.id) for r in rooms]
            return client.user.full_name, await client.availability(
                ids, day, rules.opens, rules.closes
            )

        me, days = await self._run("занятость аудиторий", read)
        by_id = {int(r.id): r for r in rooms}
        listed = []
        for entry in days:
            mine = {b.reservation_id for b in entry.busy if b.booked_for == me}
            busy, own = mapping.busy_intervals(entry, {i for i in mine if i is not None})
            listed.append(RoomAvailability(room=by_id[entry.room_id], busy=busy, mine=own))
        return Availability(
            building=found.code,
            building_name=found.name,
            day=day,
            opens=rules.opens,
            closes=rules.closes,
            rooms=listed,
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
        """One Indico booking of ``room`` with ``purpose`` as its reason.

        Idempotent: a live booking of this room, time and reason in my bookings is the
        answer, before and after a send. A send whose answer was lost is sent again only
        as ``send_once`` allows (not listed, and the room still free on the day).
        """
        del attendees  # Indico's one-off booking form has no head count
        room_id = int(room.id)
        start_dt = datetime.combine(day, start)
        end_dt = datetime.combine(day + timedelta(days=1) if end <= start else day, end)

        def listed() -> Awaitable[Booking | None]:
            return self._listed(room.id, start_dt, end_dt, purpose)

        found = await listed()
        if found is not None:
            return found
        made: im.Booking | None = None

        async def send() -> str:
            nonlocal made
            try:
                made = await self._run(
                    "бронирование",
                    lambda c: c.create_booking(room_id, start_dt, end_dt, purpose),
                    retry=False,
                )
            except OutcomeUnknown:
                raise
            except PortalUnavailable as exc:  # sent, and no answer read: it may be made
                raise OutcomeUnknown(exc.message, hint=exc.hint) from exc
            return str(made.id)

        sent = await send_once(
            send,
            listed,
            lambda: self.availability(room.building, day),
            room=room,
            start=start,
            end=end,
            attempts=self._policy.attempts,
            delay=self._policy.delay,
        )
        if isinstance(sent, Booking):  # made already: found in my bookings
            return sent
        assert made is not None  # send returned its number
        log.info("indico.booked", number=made.id, room=room.id, state=made.state.value)
        rooms = await self._rooms()
        return mapping.booking(made, {r.id: r for r in rooms.rooms})

    async def _listed(
        self, room_id: str, start: datetime, end: datetime, purpose: str
    ) -> Booking | None:
        wanted = _same(purpose)
        for booking in await self.my_bookings():
            if (
                booking.is_live
                and booking.room_id == room_id
                and (booking.day, booking.start, booking.end)
                == (start.date(), start.time(), end.time())
                and _same(booking.purpose) == wanted
            ):
                return booking
        return None

    async def my_bookings(self) -> list[Booking]:
        """Live bookings from today on (Indico's list leaves cancelled ones out)."""
        since = datetime.combine(date.today(), time(0, 0))
        found = await self._run("мои брони", lambda c: c.my_bookings(since))
        rooms = await self._rooms()
        if any(b.room_id not in {r.id for r in rooms.rooms} for b in found):
            rooms = await self._rooms(fresh=True)  # a room added since we read the list
        by_id = {r.id: r for r in rooms.rooms}
        return [mapping.booking(b, by_id) for b in found]

    async def cancel(self, number: str) -> None:
        """Cancel a live booking of ours; any other number is ``BookingRejected``."""
        if not any(b.number == number and b.is_live for b in await self.my_bookings()):
            raise BookingRejected(
                f"Бронь № {number} не найдена среди активных броней", code="not_found"
            )
        try:
            await self._run("отмена брони", lambda c: c.cancel_booking(int(number)))
        except BookingRejected:
            # A retry after a lost answer finds it cancelled already: that is success.
            if any(b.number == number and b.is_live for b in await self.my_bookings()):
                raise
        log.info("indico.cancelled", number=number)
