"""A low-level async client for Indico 3.2 room booking, driven through a real browser login.

The login goes through Indico's own login page in a Playwright page (as a person would);
everything after that calls the JSON endpoints Indico's room booking React app uses
(``indico/modules/rb/blueprint.py``) with that browser context's cookies. Indico's
create is not idempotent: callers must not blindly retry :meth:`IndicoClient.create_booking`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from pydantic import TypeAdapter

from adapters.indico.errors import (
    LoginRefused,
    NotAllowed,
    PasswordChangeRequired,
    SessionLost,
    SpansMidnight,
    SystemUnavailable,
)
from adapters.indico.http import CSRF_META, IndicoHttp
from adapters.indico.models import (
    DAY_END,
    Booking,
    BookingState,
    BusyKind,
    Catalogue,
    IndicoUser,
    Room,
    RoomAvailability,
    booking_from_details,
    busy_from_day,
    busy_from_occurrences,
    hours_from_unbookable,
)

__all__ = ["IndicoClient", "login", "resume"]

_ROOMS = TypeAdapter(list[Room])


def _iso(value: datetime) -> str:
    return value.replace(tzinfo=None, microsecond=0).isoformat()


async def login(
    page: Page, base_url: str, username: str, password: str, *, timeout_s: float = 30
) -> IndicoClient:
    """Log in through Indico's local login form in ``page``; return a client on its context."""
    base = base_url.rstrip("/")
    try:
        await page.goto(base + "/login/", wait_until="domcontentloaded", timeout=timeout_s * 1000)
        if await page.locator("#identifier").count():
            await page.fill("#identifier", username, timeout=timeout_s * 1000)
            await page.fill("#password", password, timeout=timeout_s * 1000)
            async with page.expect_navigation(
                wait_until="domcontentloaded", timeout=timeout_s * 1000
            ):
                await page.click("button.login-form-button", timeout=timeout_s * 1000)
        # else: Indico sent an already logged-in browser on; ``client.user`` says as whom.
        path = urlsplit(page.url).path
        notice = page.locator(".error-message-box .message-text")
        text = (await notice.first.inner_text()).strip() if await notice.count() else ""
        html = await page.content()
    except PlaywrightError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SystemUnavailable(f"Indico's login page failed: {first}") from exc
    if path.startswith("/login"):
        raise LoginRefused(text or "Indico refused the login")
    if path.startswith("/user/accounts") or "no longer secure" in text:
        raise PasswordChangeRequired(text or "Indico requires a password change")
    match = CSRF_META.search(html)
    if match is None:
        raise SessionLost("no CSRF token on the page after login")
    client = IndicoClient(page.context, base, match.group(1), timeout_s=timeout_s)
    await client.refresh_user()
    return client


async def session_token(context: BrowserContext, base_url: str, *, timeout_s: float) -> str:
    """The CSRF token of the session ``context`` is logged in with (Indico's home page)."""
    try:
        response = await context.request.get(
            base_url.rstrip("/") + "/",
            timeout=timeout_s * 1000,
            max_redirects=0,
            fail_on_status_code=False,
        )
        html = await response.text()
    except PlaywrightError as exc:
        raise SystemUnavailable("Indico did not answer") from exc
    match = CSRF_META.search(html)
    if match is None:
        raise SessionLost("no CSRF token on Indico's home page")
    return match.group(1)


async def resume(context: BrowserContext, base_url: str, *, timeout_s: float = 30) -> IndicoClient:
    """A client on a context that is already logged in (e.g. restored storage state)."""
    base = base_url.rstrip("/")
    token = await session_token(context, base, timeout_s=timeout_s)
    client = IndicoClient(context, base, token, timeout_s=timeout_s)
    await client.refresh_user()
    return client


class IndicoClient:
    """Room booking calls as the logged-in user; every failure is an ``IndicoError``."""

    def __init__(
        self, context: BrowserContext, base_url: str, csrf_token: str, *, timeout_s: float = 30
    ) -> None:
        self.context = context
        self.http = IndicoHttp(context.request, base_url, csrf_token, timeout_s=timeout_s)
        self._user: IndicoUser | None = None

    @property
    def user(self) -> IndicoUser:
        if self._user is None:
            raise SessionLost("not logged in")
        return self._user

    async def refresh_user(self) -> IndicoUser:
        """Who we are (``GET /rooms/api/user/``); a lost session raises ``SessionLost``."""
        self._user = IndicoUser.model_validate(await self.http.get("/rooms/api/user/"))
        return self._user

    # --- catalogue ---------------------------------------------------------------------

    async def catalogue(self, day: date | None = None) -> Catalogue:
        """Every room with its location, building, horizon, bookable hours and our rights.

        Bookable hours are not in the rooms list: the timeline gives their complement
        (``unbookable_hours``), the same for every day, so one call for ``day`` covers all.
        """
        raw_rooms: list[dict[str, Any]] = await self.http.get("/rooms/api/rooms/")
        perms: dict[str, Any] = await self.http.get("/rooms/api/rooms/permissions")
        user_perms: dict[str, dict[str, bool]] = perms.get("user") or {}
        ids = [int(r["id"]) for r in raw_rooms]
        timeline = await self._timeline(ids, day or date.today(), time(0, 0), DAY_END)
        for raw in raw_rooms:
            rights = user_perms.get(str(raw["id"]), {})
            raw["can_book"] = bool(rights.get("book"))
            raw["can_prebook"] = bool(rights.get("prebook"))
            unbookable = timeline.get(int(raw["id"]), {}).get("unbookable_hours") or []
            raw["bookable_hours"] = hours_from_unbookable(unbookable)
        return Catalogue(rooms=tuple(_ROOMS.validate_python(raw_rooms)))

    # --- availability ------------------------------------------------------------------

    async def availability(
        self, room_ids: Iterable[int], day: date, start: time, end: time
    ) -> list[RoomAvailability]:
        """What occupies each room on ``day``, and whether [start, end) is free, per room.

        Uses the timeline endpoint the booking search shows: ``bookings``/``pre_bookings``
        cover the whole day, ``candidates`` is empty when Indico would refuse the range.
        """
        ids = list(room_ids)
        timeline = await self._timeline(ids, day, start, end)
        key = day.isoformat()
        out: list[RoomAvailability] = []
        for room_id in ids:
            data = timeline.get(room_id, {})
            busy = [
                *busy_from_occurrences(data.get("bookings", {}).get(key, []), BusyKind.BOOKING),
                *busy_from_occurrences(
                    data.get("pre_bookings", {}).get(key, []), BusyKind.PRE_BOOKING
                ),
                *busy_from_day(data, key, day),
            ]
            busy.sort(key=lambda b: (b.start, b.end))
            out.append(
                RoomAvailability(
                    room_id=room_id,
                    day=day,
                    start=datetime.combine(day, start),
                    end=datetime.combine(day, end),
                    available=bool(data.get("candidates", {}).get(key)),
                    busy=tuple(busy),
                )
            )
        return out

    async def _timeline(
        self, room_ids: list[int], day: date, start: time, end: time
    ) -> dict[int, dict[str, Any]]:
        params: dict[str, str | int | bool] = {
            "start_dt": _iso(datetime.combine(day, start)),
            "end_dt": _iso(datetime.combine(day, end)),
            "repeat_frequency": "NEVER",
            "repeat_interval": 1,
        }
        data = await self.http.post("/rooms/api/timeline", params, {"room_ids": room_ids})
        return {int(room_id): entry for room_id, entry in data.get("availability", [])}

    # --- bookings ----------------------------------------------------------------------

    async def create_booking(
        self,
        room_id: int,
        start: datetime,
        end: datetime,
        reason: str,
        *,
        prebook: bool | None = None,
    ) -> Booking:
        """Book [start, end) for ourselves; NOT idempotent (a retry may book twice).

        ``prebook=None`` asks Indico which we may do: book outright, or only pre-book
        (rooms that need a manager's approval; the booking comes back ``PENDING``).
        """
        if start.date() != end.date():
            # Indico answers this with a 500 (an uncaught ValueError): refuse it here.
            raise SpansMidnight("a one-off booking must end on the day it starts")
        if prebook is None:
            prebook = await self._must_prebook(room_id)
        body = {
            "room_id": room_id,
            "start_dt": _iso(start),
            "end_dt": _iso(end),
            "repeat_frequency": "NEVER",
            "repeat_interval": 0,
            "reason": reason,
            "is_prebooking": prebook,
        }
        data = await self.http.post("/rooms/api/booking/create", None, body)
        return booking_from_details(data["booking"])

    async def _must_prebook(self, room_id: int) -> bool:
        rights = (await self.http.get(f"/rooms/api/rooms/{room_id}/permissions")).get("user", {})
        if rights.get("book"):
            return False
        if rights.get("prebook"):
            return True
        raise NotAllowed(f"this account may not book room {room_id}", status=403)

    async def booking(self, booking_id: int) -> Booking:
        return booking_from_details(await self.http.get(f"/rooms/api/bookings/{booking_id}"))

    async def my_bookings(self, since: datetime | None = None, limit: int = 500) -> list[Booking]:
        """Our bookings (booked for or by us) starting after ``since`` (default: today 00:00).

        Cancelled and rejected ones are left out, as in Indico's own "my bookings" list.
        """
        params: dict[str, str | int | bool] = {"my_bookings": "true", "limit": limit}
        if since is not None:
            params["start_dt"] = _iso(since)
        data = await self.http.post("/rooms/api/bookings/active", params, {})
        out: list[Booking] = []
        for occurrences in data.get("bookings", {}).values():
            for occ in occurrences:
                resv = occ["reservation"]
                out.append(
                    Booking(
                        id=resv["id"],
                        room_id=resv["room_id"],
                        start=occ["start_dt"],
                        end=occ["end_dt"],
                        reason=resv["booking_reason"],
                        state=BookingState.ACCEPTED
                        if resv["is_accepted"]
                        else BookingState.PENDING,
                        booked_for=resv.get("booked_for_name") or "",
                    )
                )
        out.sort(key=lambda b: (b.start, b.id))
        return out

    async def cancel_booking(self, booking_id: int) -> Booking:
        """Cancel one of our bookings; returns it as Indico now has it (``CANCELLED``)."""
        data = await self.http.post(f"/rooms/api/bookings/{booking_id}/cancel", None, {})
        return booking_from_details(data["booking"])
