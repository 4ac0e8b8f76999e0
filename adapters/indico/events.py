"""The club's events on Indico 3.2: create (with its room booked through the event), find
by the run's mark, list, open registration with a limit, count registrations, delete.

Driven as Indico's own pages drive it, over a logged-in browser context's request API
(``context.request`` shares the cookies of :func:`adapters.indico.api.login`):

- create: ``POST /event/create/lecture`` (XHR; the WTForms ``EventCreationForm`` fields
  prefixed ``event-creation-``, the page's CSRF token in ``event-creation-csrf_token``);
  Indico answers ``{"redirect": "/event/<id>/manage/", "success": true}``, or the form
  again (``{"html": ...}``) when it refused. A lecture, because its form has a
  description: the run's mark is in the event from its first commit, so "look before
  you create" never misses an event made by a lost request.
- the room: ``POST /rooms/api/booking/create`` with ``link_type=event`` and
  ``link_id=<event id>`` (``RHCreateBooking._link_booking``), the booking's reason
  carrying the mark too, so a retry finds it among "my bookings". (The form's own
  ``create_booking`` flag books the same way but only flashes a refusal.)
- find and list: Indico's HTTP export API, ``GET /export/categ/<id>.json`` with
  ``ca=yes`` (the session cookie, with the CSRF token in ``X-CSRF-Token``) and
  ``nc=yes`` (no cache); it gives each event's description.
- registration: ``PUT /event/<id>/manage/features/registration`` (XHR, JSON) turns the
  feature on (lectures have it off); ``GET /event/<id>/api/registration-forms`` lists the
  forms; ``POST /event/<id>/manage/registration/create`` (WTForms, 302 to the form's
  page) makes one; ``/manage/registration/<form>/edit`` (WTForms: the page's own values
  posted back with ``limit_registrations`` and ``registration_limit``) sets the limit;
  ``POST .../<form>/open`` opens it; ``GET /api/events/<id>/registrants`` counts.
- delete: ``POST /event/<id>/manage/delete`` (XHR, JSON); Indico's ``event.deleted``
  signal cancels the event's linked bookings that have not ended (``indico/modules/rb``).
- whose: the export gives each event's ``creator``; ``GET /rooms/api/user/`` who we are.
  An event another account made in a category the club shares is never the club's,
  whatever its description says (a run's mark is easily copied).

This module answers in the port's ``Event`` and raises ``IndicoError``s
(``adapters.indico.event_system`` translates those for the scenarios).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any, NoReturn
from zoneinfo import ZoneInfo

from playwright.async_api import APIRequestContext, BrowserContext

from adapters.indico.api import session_token
from adapters.indico.errors import (
    BookingRefused,
    EventLeft,
    EventUndone,
    FormRefused,
    Missing,
    NotAllowed,
    SlotOccupied,
    SystemUnavailable,
    UnexpectedAnswer,
)
from adapters.indico.http import IndicoHttp
from adapters.indico.pages import IndicoPages, form_errors, form_fields
from scenarios.events.models import Event, carries

__all__ = ["IndicoEvents", "events_on"]

_PREFIX = "event-creation-"
_EVENT_PATH = re.compile(r"/event/(\d+)/")
_REGFORM_PATH = re.compile(r"/registration/(\d+)/")
_NO_REGISTRATION = "'Registration' feature is not enabled"


async def events_on(
    context: BrowserContext,
    base_url: str,
    *,
    category_id: int,
    timezone: str,
    timeout_s: float = 30,
) -> IndicoEvents:
    """The club's events on a context already logged in to Indico (``api.login``)."""
    base = base_url.rstrip("/")
    token = await session_token(context, base, timeout_s=timeout_s)
    return IndicoEvents(
        context.request,
        base,
        token,
        category_id=category_id,
        timezone=timezone,
        timeout_s=timeout_s,
    )


class IndicoEvents:
    """The club's events in category ``category_id``, as the logged-in user.

    ``timezone`` is the zone the club's times are in (Indico's ``DEFAULT_TIMEZONE`` for
    its room booking): events are created in it and read back in it.
    """

    def __init__(
        self,
        request: APIRequestContext,
        base_url: str,
        csrf_token: str,
        *,
        category_id: int,
        timezone: str,
        timeout_s: float = 30,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._csrf = csrf_token
        self._pages = IndicoPages(request, self.base_url, csrf_token, timeout_s=timeout_s)
        self.http = IndicoHttp(request, self.base_url, csrf_token, timeout_s=timeout_s)
        self.category_id = category_id
        self.timezone = timezone
        self._zone = ZoneInfo(timezone)
        self._my_id: str | None = None

    # --- events ------------------------------------------------------------------------

    async def create_event(
        self,
        *,
        title: str,
        day: date,
        start: time,
        end: time,
        room_id: str | None,
        mark: str,
    ) -> Event:
        """Find the event carrying ``mark`` or make it; then book ``room_id`` for it unless
        a booking with the mark is already live. A booking that fails for any reason (a
        5xx too) deletes the event again: ``SlotOccupied`` for a taken room, else
        ``EventUndone``; ``EventLeft`` when the delete fails as well."""
        if not mark.strip():
            raise ValueError("an event needs the run's mark")
        if end <= start:
            raise FormRefused("the event must end after it starts", status=None)
        event = await self.find_event(mark)
        if event is None:
            event = await self._create(title, day, start, end, room_id, mark)
        if room_id is None:
            return event
        try:
            held = await self._booking_with(mark)
            if held is None:
                held = await self._book(int(room_id), int(event.id), day, start, end, title, mark)
        except Exception as exc:  # an event without the room it was made for is undone
            await self._undo(event, exc)
        return event.model_copy(update={"booking_id": str(held), "room_id": room_id})

    async def _undo(self, event: Event, failure: Exception) -> NoReturn:
        """Delete ``event``, whose room could not be booked, and say why. A taken room is
        ``SlotOccupied`` as before (the scenario offers other rooms); a delete that fails
        too is ``EventLeft``, naming the event that stays on the site."""
        refusal = failure.message if isinstance(failure, BookingRefused | NotAllowed) else None
        try:
            await self.delete_event(event.id)
        except Exception as exc:
            raise EventLeft(
                f"event {event.id} stays without its room: {failure}; its delete: {exc}",
                event=event,
                refusal=refusal,
            ) from failure
        if isinstance(failure, SlotOccupied):
            raise failure
        raise EventUndone(
            f"the room of event {event.id} was not booked ({failure}); the event is deleted",
            refusal=refusal,
        ) from failure

    async def _create(
        self, title: str, day: date, start: time, end: time, room_id: str | None, mark: str
    ) -> Event:
        location: dict[str, Any] = {"inheriting": False}
        if room_id is not None:
            location |= {"room_id": int(room_id), "venue_id": await self._venue(int(room_id))}
        minutes = (datetime.combine(day, end) - datetime.combine(day, start)).seconds // 60
        occurrence = {"date": day.isoformat(), "time": start.strftime("%H:%M"), "duration": minutes}
        form = {
            "csrf_token": self._csrf,
            "category": json.dumps({"id": self.category_id}),
            "title": title,
            "occurrences": json.dumps([occurrence]),
            "timezone": self.timezone,
            "location_data": json.dumps(location),
            "create_booking": "false",  # booked below, linked, so a refusal is seen
            "person_link_data": "[]",
            "protection_mode": "inheriting",
            "description": mark,
            "theme": "",
        }
        try:
            data = await self._pages.post_form(
                "/event/create/lecture", {_PREFIX + k: v for k, v in form.items()}, xhr=True
            )
        except SystemUnavailable:
            # The answer was lost, not necessarily the event: the mark says which.
            found = await self.find_event(mark)
            if found is not None:
                return found
            raise
        redirect = data.get("redirect") if isinstance(data, dict) else None
        match = _EVENT_PATH.search(redirect or "")
        if match is None:
            html = data.get("html", "") if isinstance(data, dict) else ""
            raise FormRefused(form_errors(str(html)), status=200)
        found = await self.find_event(mark)
        if found is None or found.id != match.group(1):
            raise SystemUnavailable(f"event {match.group(1)} was made but is not listed")
        return found

    async def _venue(self, room_id: int) -> int:
        rooms: list[dict[str, Any]] = await self.http.get("/rooms/api/rooms/")
        for room in rooms:
            if int(room["id"]) == room_id:
                return int(room["location_id"])
        raise Missing(f"Indico has no room {room_id}", status=404)

    async def find_event(self, mark: str) -> Event | None:
        if not mark.strip():
            return None
        # Another account's event may carry a copy of the mark: never ours to complete.
        found = [e for e in await self._export({}) if e.by_club and carries(e.description, mark)]
        return min(found, key=lambda e: int(e.id)) if found else None

    async def upcoming_events(self) -> list[Event]:
        events = await self._export({"from": "today"})
        return sorted(events, key=lambda e: (e.day, e.start, int(e.id)))

    async def _export(self, params: Mapping[str, str]) -> list[Event]:
        query = {"ca": "yes", "nc": "yes", "detail": "events", **params}
        data = await self._pages.get_json(f"/export/categ/{self.category_id}.json", query)
        results = data.get("results") if isinstance(data, dict) else None
        me = await self._me()
        return [self._event(raw, me) for raw in results or []]

    async def _me(self) -> str:
        """The logged-in account's id, as the export names an event's creator."""
        if self._my_id is None:
            self._my_id = str((await self.http.get("/rooms/api/user/"))["id"])
        return self._my_id

    def _event(self, raw: Mapping[str, Any], me: str) -> Event:
        creator = raw.get("creator")
        made_by = str(creator.get("id")) if isinstance(creator, dict) else None
        start = self._local(raw["startDate"])
        end = self._local(raw["endDate"])
        return Event(
            id=str(raw["id"]),
            title=str(raw.get("title") or ""),
            day=start.date(),
            start=start.time(),
            end=end.time(),
            url=str(raw.get("url") or ""),
            description=str(raw.get("description") or ""),
            room=str(raw.get("roomFullname") or raw.get("room") or ""),
            by_club=made_by == me,
        )

    def _local(self, when: Mapping[str, str]) -> datetime:
        """``{"date", "time", "tz"}`` of the export API, in the adapter's zone, naive."""
        moment = datetime.fromisoformat(f"{when['date']}T{when['time']}")
        aware = moment.replace(tzinfo=ZoneInfo(when.get("tz") or self.timezone))
        return aware.astimezone(self._zone).replace(tzinfo=None, microsecond=0)

    async def delete_event(self, event_id: str) -> None:
        data = await self._pages.post_form(
            f"/event/{int(event_id)}/manage/delete", {"csrf_token": self._csrf}, xhr=True
        )
        if not (isinstance(data, dict) and data.get("success")):
            raise UnexpectedAnswer(f"Indico did not delete event {event_id}", status=200)

    # --- the room ------------------------------------------------------------------------

    async def _book(
        self, room_id: int, event_id: int, day: date, start: time, end: time, title: str, mark: str
    ) -> int:
        body = {
            "room_id": room_id,
            "start_dt": datetime.combine(day, start).isoformat(),
            "end_dt": datetime.combine(day, end).isoformat(),
            "repeat_frequency": "NEVER",
            "repeat_interval": 0,
            "reason": f"{title} {mark}",
            "is_prebooking": await self._must_prebook(room_id),
            "link_type": "event",
            "link_id": event_id,
            "link_back": False,
        }
        try:
            data = await self.http.post("/rooms/api/booking/create", None, body)
        except SystemUnavailable:
            held = await self._booking_with(mark)
            if held is None:
                raise
            return held
        return int(data["booking"]["id"])

    async def _must_prebook(self, room_id: int) -> bool:
        """Whether we may only pre-book the room (it needs a manager's approval)."""
        rights = (await self.http.get(f"/rooms/api/rooms/{room_id}/permissions")).get("user", {})
        if rights.get("book"):
            return False
        if rights.get("prebook"):
            return True
        raise NotAllowed(f"this account may not book room {room_id}", status=403)

    async def _booking_with(self, mark: str) -> int | None:
        """Our live booking whose reason carries ``mark`` (Indico's "my bookings")."""
        params: dict[str, str | int | bool] = {"my_bookings": "true", "limit": 500}
        data = await self.http.post("/rooms/api/bookings/active", params, {})
        for occurrences in data.get("bookings", {}).values():
            for occurrence in occurrences:
                reservation = occurrence["reservation"]
                if carries(str(reservation.get("booking_reason") or ""), mark):
                    return int(reservation["id"])
        return None

    # --- registration --------------------------------------------------------------------

    async def open_registration(self, event_id: str, limit: int | None) -> None:
        event = int(event_id)
        if limit is not None and limit < 1:
            raise FormRefused("a registration limit must be at least 1", status=None)
        await self._pages.call("PUT", f"/event/{event}/manage/features/registration", xhr=True)
        regform = await self._regform(event)
        if regform is None:
            form = {
                "csrf_token": self._csrf,
                "title": "Registration",
                "visibility": json.dumps(["show_all", "hide_all", None]),
                "retention_period": "",
            }
            try:
                location = await self._pages.post_redirect(
                    f"/event/{event}/manage/registration/create", form
                )
            except SystemUnavailable:
                location = ""
            match = _REGFORM_PATH.search(location)
            regform = int(match.group(1)) if match else await self._regform(event)
            if regform is None:
                raise SystemUnavailable(f"no registration form on event {event} after creating one")
        base = f"/event/{event}/manage/registration/{regform}"
        page = await self._pages.call("GET", base + "/edit", xhr=False)
        # What the page holds, as its script would send it: fields hidden by a switch
        # that is off are left out (Indico refuses data for them).
        fields = {k: v for k, v in form_fields(await page.text()).items() if v.strip()}
        fields.pop("limit_registrations", None)
        fields.pop("registration_limit", None)
        if limit is not None:
            fields |= {"limit_registrations": "y", "registration_limit": str(limit)}
        fields["csrf_token"] = self._csrf
        await self._pages.post_redirect(base + "/edit", fields)
        await self._pages.post_redirect(base + "/open", {"csrf_token": self._csrf})

    async def _regform(self, event: int) -> int | None:
        forms: list[dict[str, Any]] = await self.http.get(f"/event/{event}/api/registration-forms")
        return min((int(f["id"]) for f in forms), default=None)

    async def registrations(self, event_id: str) -> int:
        try:
            data = await self.http.get(f"/api/events/{int(event_id)}/registrants")
        except Missing as exc:
            # Indico answers 404 for an event whose registration was never turned on:
            # nobody could register, which is an answer, not a missing event.
            if _NO_REGISTRATION in exc.message:
                return 0
            raise
        return len(data.get("registrants") or [])
