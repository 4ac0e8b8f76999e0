"""Booking form, its confirmation page, «Мои брони» and cancellation."""

from __future__ import annotations

from datetime import timedelta

from aiohttp import web
from multidict import MultiDictProxy

from portal.clock import CLOSE_MIN, OPEN_MIN, SLOT_MIN, fmt_hhmm, parse_hhmm
from portal.data import Room, building, room
from portal.db import NewBooking
from portal.errors import BookingRejected, UnknownObject
from portal.render import redirect, render, session_of
from portal.rules import validate
from portal.state import STATE

__all__ = ["CANCEL_ALL", "routes"]

routes = web.RouteTableDef()

CANCEL_ALL = "/my/cancel-all"

_TIMES = [fmt_hhmm(m) for m in range(OPEN_MIN, CLOSE_MIN + SLOT_MIN, SLOT_MIN)]
_STATUS = {"slot_taken": 409}


def _form(
    request: web.Request,
    target: Room,
    values: dict[str, str],
    *,
    error: BookingRejected | None = None,
) -> web.Response:
    # A requested time off the list (e.g. 18:15) is kept as an option, so the
    # server, not the browser, is the one that says no.
    times = {name: list(_TIMES) for name in ("start", "end")}
    for name, options in times.items():
        if values[name] and values[name] not in options:
            options.insert(0, values[name])
    status = 200 if error is None else _STATUS.get(error.code, 422)
    return render(
        request,
        "book.html",
        status=status,
        room=target,
        building=building(target.building),
        values=values,
        times=times,
        error=error,
    )


@routes.get("/book")
async def book_form(request: web.Request) -> web.StreamResponse:
    target = room(request.query.get("room", ""))
    q = request.query
    start = q.get("start", "18:00")
    start_min = parse_hhmm(start)
    default_end = fmt_hhmm(start_min + SLOT_MIN) if start_min is not None else ""
    values = {
        "date": q.get("date", request.app[STATE].now().date().isoformat()),
        "start": start,
        "end": q.get("end", default_end),
        "purpose": "",
        "attendees": "",
    }
    return _form(request, target, values)


@routes.post("/book")
async def book(request: web.Request) -> web.StreamResponse:
    return await _book(request, await request.post())


async def _book(
    request: web.Request, form: MultiDictProxy[str | bytes | bytearray | web.FileField]
) -> web.Response:
    state = request.app[STATE]
    target = room(str(form.get("room", "")))
    values = {k: str(form.get(k, "")) for k in ("date", "start", "end", "purpose", "attendees")}
    session = session_of(request)
    if not session.csrf_ok(str(form.get("csrf_token", ""))):
        expired = BookingRejected("csrf", "Срок действия формы истёк. Отправьте её ещё раз.")
        return _form(request, target, values, error=expired)
    try:
        checked = validate(
            room=target,
            day=values["date"],
            start=values["start"],
            end=values["end"],
            purpose=values["purpose"],
            attendees=values["attendees"],
            now=state.now(),
        )
        if state.quirks.quirks.full_building == target.building:
            raise BookingRejected("slot_taken", "Это время уже занято: выберите другое.")
        if "consent" in state.quirks.quirks.drift and not form.get("consent"):
            raise BookingRejected("consent", "Подтвердите, что освободите аудиторию вовремя.")
        assert session.user is not None  # the gate lets only logged-in users here
        created = await state.store.create(
            NewBooking(
                user=session.user,
                room_id=target.id,
                day=checked.day,
                start=checked.start,
                end=checked.end,
                purpose=checked.purpose,
                attendees=checked.attendees,
            )
        )
    except BookingRejected as exc:
        return _form(request, target, values, error=exc)
    if "in_place" in state.quirks.quirks.drift:  # made, and its number not shown
        return render(request, "accepted.html")
    if "saved_to_day" in state.quirks.quirks.drift:  # made: back to its day, no number
        return redirect(f"/rooms?building={target.building}&date={checked.day.isoformat()}")
    return redirect(f"/booking/{created.id}")


async def _own_booking(request: web.Request) -> tuple[int, str]:
    try:
        booking_id = int(request.match_info["booking_id"])
    except ValueError:
        raise UnknownObject("bad booking id") from None
    user = session_of(request).user
    assert user is not None
    return booking_id, user


@routes.get(r"/booking/{booking_id:\d+}")
async def booked(request: web.Request) -> web.StreamResponse:
    booking_id, user = await _own_booking(request)
    found = await request.app[STATE].store.get(booking_id)
    if found is None or found.user != user:
        raise UnknownObject(f"booking {booking_id}")
    return render(
        request,
        "booked.html",
        booking=found,
        room=room(found.room_id),
        building=building(found.building),
    )


@routes.get("/my")
async def my_bookings(request: web.Request) -> web.StreamResponse:
    user = session_of(request).user
    assert user is not None
    state = request.app[STATE]
    bookings = await state.store.active_for_user(user)
    if "my_unreadable" in state.quirks.quirks.drift and any("#" in b.purpose for b in bookings):
        return render(request, "500.html", status=500)  # a row it cannot draw breaks it all
    drift = state.quirks.quirks.drift
    if "short_list" in drift or "today_list" in drift:  # only today's (and tomorrow's)
        last = state.now().date() + timedelta(days=0 if "today_list" in drift else 1)
        bookings = [b for b in bookings if b.day <= last]
    rows = [(b, building(b.building), room(b.room_id)) for b in bookings]
    cancelled = request.query.get("cancelled", "")
    return render(request, "my.html", rows=rows, cancelled=cancelled if cancelled.isdigit() else "")


@routes.post(r"/my/{booking_id:\d+}/cancel")
async def cancel(request: web.Request) -> web.StreamResponse:
    booking_id, user = await _own_booking(request)
    request.app[STATE].quirks.cancels.append(f"POST {request.path} by {user}")
    form = await request.post()
    if not session_of(request).csrf_ok(str(form.get("csrf_token", ""))):
        return render(request, "error.html", status=403, title="Срок действия формы истёк",
                      message="Обновите страницу «Мои брони» и попробуйте снова.")  # fmt: skip
    if await request.app[STATE].store.cancel(booking_id, user=user) is None:
        raise UnknownObject(f"booking {booking_id}")
    return redirect(f"/my?cancelled={booking_id}")


@routes.post(CANCEL_ALL)
async def cancel_all(request: web.Request) -> web.StreamResponse:
    """«Удалить все брони»: every active booking of the user cancelled (the ``destructive``
    drift offers it on the booking form, first); with ``destructive_rebook`` the form it
    came with is then booked, so a bot that pressed it reads a booking's number."""
    state = request.app[STATE]
    session = session_of(request)
    user = session.user
    assert user is not None  # the gate lets only logged-in users here
    form = await request.post()
    state.quirks.cancels.append(f"POST {request.path} by {user}")
    if not session.csrf_ok(str(form.get("csrf_token", ""))):
        return render(request, "error.html", status=403, title="Срок действия формы истёк",
                      message="Обновите страницу и попробуйте снова.")  # fmt: skip
    for mine in await state.store.active_for_user(user):
        await state.store.cancel(mine.id, user=user)
    if "destructive_rebook" in state.quirks.quirks.drift and form.get("room"):
        return await _book(request, form)
    return redirect("/my")
