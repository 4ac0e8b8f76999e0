"""``clubman site check`` and ``site show``: a profile tried on the live site, part by part.

The check logs in, reads the catalogue and one day, books the day's last free step on the
nearest day the site takes (tomorrow, or the first after it the site does not refuse),
finds the booking in «my bookings» and cancels it. The nearest day, because a site's «my
bookings» may show only the next days: a booking it cannot list, it cannot cancel. Its
bookings carry ``CHECK_MARK`` in their purpose: whatever a check leaves (it failed half-way, was
interrupted, or was killed) is cancelled by the same check in ``finally`` or, after a
kill, by the next check before it books anything.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from adapters.profile.errors import ProfileMismatch
from adapters.profile.session import ProfileSession
from core.browser import BrowserContext
from core.browser.screenshot import screenshot
from core.errors import ClubError
from core.site.models import Catalogue, Room
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.models import Availability, Booking

__all__ = ["CHECK_MARK", "PartResult", "SiteReport", "check_site", "show_site"]

CHECK_MARK = "clubman site check"
_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
T = TypeVar("T")


class PartResult(BaseModel):
    """One part of the profile as tried on the site."""

    part: str
    ok: bool
    detail: str
    where: str = ""  # the profile's file:line, for a part that did not match
    path: str = ""  # and its part and field there («my_bookings.start»)
    tried: str = ""  # the locators tried
    seen: str = ""  # what the page showed instead
    screenshot: str = ""  # a PNG of the page


class SiteReport(BaseModel):
    profile: str
    url: str
    parts: list[PartResult]

    @property
    def ok(self) -> bool:
        return all(part.ok for part in self.parts)


def _day(value: date) -> str:
    return f"{_WEEKDAYS[value.weekday()]} {value:%d.%m}"


def _span(start: time, end: time) -> str:
    return f"{start:%H:%M}–{end:%H:%M}"


class _Checker:
    def __init__(self, context: BrowserContext, shots: Path) -> None:
        self.context = context
        self.shots = shots
        self.parts: list[PartResult] = []

    async def part(self, name: str, action: Callable[[], Awaitable[tuple[T, str]]]) -> T | None:
        """Run one part; record ✓ with its detail, or ✗ with what went wrong."""
        try:
            result, detail = await action()
        except ClubError as exc:
            self.parts.append(await self._failed(name, exc))
            return None
        self.parts.append(PartResult(part=name, ok=True, detail=detail))
        return result

    async def _failed(self, name: str, exc: ClubError) -> PartResult:
        shot = ""
        picture = await screenshot(self.context)
        if picture is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            path = self.shots / f"site-check-{name}-{secrets.token_hex(3)}.png"
            path.write_bytes(picture)
            shot = str(path)
        if isinstance(exc, ProfileMismatch):
            page = exc.summary
            seen = f"«{page.title}» {page.url}"
            if page.heading:
                seen += f", заголовок «{page.heading}»"
            if page.buttons:
                seen += ", кнопки: " + ", ".join(f"«{b}»" for b in page.buttons[:8])
            if page.fields:
                seen += ", поля: " + ", ".join(f"«{f}»" for f in page.fields[:8])
            return PartResult(
                part=name, ok=False, detail=exc.what, where=exc.where, path=exc.path,
                tried=exc.tried, seen=seen, screenshot=shot,
            )  # fmt: skip
        return PartResult(part=name, ok=False, detail=str(exc), screenshot=shot)

    def skipped(self, name: str, because: str) -> None:
        self.parts.append(PartResult(part=name, ok=False, detail=f"не проверено: {because}"))


async def _login(session: ProfileSession, username: str) -> tuple[None, str]:
    # The login alone: «my bookings», which a session confirms it on, is a part of its
    # own, so that a list the profile misreads is not reported as a failed login.
    await session.ensure_logged_in(on_list=False)
    return None, f"вход выполнен как {username}"


async def _catalogue(session: ProfileSession) -> tuple[Catalogue, str]:
    catalogue = await session.catalogue()
    rules = catalogue.rules
    return catalogue, (
        f"корпусов: {len(catalogue.buildings)}, аудиторий: {len(catalogue.rooms)}; правила: "
        f"{_span(rules.opens, rules.closes)}, шаг {rules.step_minutes} мин, не дольше "
        f"{rules.longest_minutes} мин, на {rules.horizon_days} дн. вперёд"
    )


async def show_site(
    session: ProfileSession, context: BrowserContext, *, username: str, shots: Path
) -> tuple[SiteReport, Catalogue | None]:
    """Log in and read the catalogue and rules; books nothing."""
    check = _Checker(context, shots)
    catalogue = None
    await check.part("вход", lambda: _login(session, username))
    if check.parts[-1].ok:
        catalogue = await check.part("каталог", lambda: _catalogue(session))
    return SiteReport(profile=session.profile_name, url=session.url, parts=check.parts), catalogue


async def _leftovers(session: ProfileSession) -> tuple[int, str]:
    """Cancel what earlier checks left booked (they were killed before cleaning up)."""
    left = [b for b in await session.my_bookings() if b.is_live and _is_check(b)]
    for booking in left:
        await session.cancel(booking.number)
    detail = f"«мои брони» прочитаны, броней: {len(await session.my_bookings())}"
    if left:
        detail += f"; отменено оставшихся от прерванной проверки: {len(left)}"
    return len(left), detail


def _is_check(booking: Booking) -> bool:
    return booking.purpose.strip().startswith(CHECK_MARK)


def _last_free_step(day: Availability, step: int) -> tuple[Room, time, time] | None:
    """The latest free step of the day in any room (the hour least likely to be wanted)."""
    closes = datetime.combine(day.day, day.closes)
    for back in range(1, 48):
        end = closes - timedelta(minutes=step * (back - 1))
        start = end - timedelta(minutes=step)
        if start.time() < day.opens:
            return None
        rooms = day.free_rooms(start.time(), end.time())
        if rooms:
            return rooms[0], start.time(), end.time()
    return None


class _Booked:
    """What the check booked, so that ``finally`` can cancel it: nothing is looked for
    unless a booking was sent (``attempted``)."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose
        self.attempted = False
        self.refused = False  # the last one was refused, or never sent: nothing was made
        self.where = ""  # the room, day and time of the last one sent
        self.number: str | None = None
        self.cancelled = False


async def _book_and_cancel(
    session: ProfileSession, catalogue: Catalogue, today: date, booked: _Booked
) -> tuple[None, str]:
    building = next(b for b in catalogue.buildings if catalogue.rooms_in(b.code))
    step = catalogue.rules.step_minutes
    for ahead in range(1, 4):  # the site's "today" may be a day ahead of ours (its time zone)
        day = today + timedelta(days=ahead)
        shown = await session.availability(building.code, day)
        slot = _last_free_step(shown, step)
        if slot is None:
            raise BookingRejected(f"В «{building.name}» {_day(day)} нет свободного времени")
        room, start, end = slot
        booked.attempted, booked.refused = True, False
        booked.where = f"ауд. {room.number}, {_day(day)} {_span(start, end)}"
        sent = session.creates_sent
        try:
            made = await session.book(
                room=room, day=day, start=start, end=end, purpose=booked.purpose
            )
        except (BookingRejected, SlotTaken) as exc:
            booked.refused = True
            # «Too soon», «in the past» — said so, or in words a drafted profile does not
            # know yet: the next day.
            if isinstance(exc, BookingRejected) and exc.code in ("in_past", None) and ahead < 3:
                continue
            raise
        except BaseException:
            booked.refused = session.creates_sent == sent  # failed before anything was sent
            raise
        booked.number = made.number
        free = len(shown.free_rooms(start, end))
        mine = [b for b in await session.my_bookings() if b.number == made.number and b.is_live]
        if not mine:
            raise BookingRejected(f"Бронь № {made.number} не видна в «моих бронях»")
        # Its own page, by its address: a booking is not always read there as it is made
        # (the site's answer named it, or the form led to where it shows).
        paged = await session.booking_page(made.number)
        if (paged.day, paged.start, paged.end) != (day, start, end):
            raise BookingRejected(
                f"Страница брони № {made.number} показывает {_day(paged.day)} "
                f"{_span(paged.start, paged.end)}, а не {_day(day)} {_span(start, end)}"
            )
        await session.cancel(made.number)
        booked.cancelled = True
        still = [b for b in await session.my_bookings() if b.number == made.number and b.is_live]
        if still:
            raise BookingRejected(f"Бронь № {made.number} осталась в «моих бронях» после отмены")
        return None, (
            f"свободно {_day(day)} {_span(start, end)} в «{shown.building_name}»: "
            f"{free} из {len(shown.rooms)} ауд.; тестовая бронь № {made.number} "
            f"(ауд. {room.number}) "
            "сделана, найдена в «моих бронях», прочитана на своей странице и отменена"
        )
    raise AssertionError("unreachable: the loop returns or raises")


async def _clean_up(session: ProfileSession, booked: _Booked) -> PartResult | None:
    """Cancel this check's booking if it is still there (a failure or an interruption)."""
    if booked.cancelled or not booked.attempted:
        return None
    cancelled = []
    try:
        for booking in await session.my_bookings():
            ours = booking.number == booked.number or (
                booking.purpose.strip() == booked.purpose  # sent, its number never learnt
            )
            if booking.is_live and ours:
                await session.cancel(booking.number)
                cancelled.append(booking.number)
    except ClubError as exc:
        return PartResult(
            part="уборка",
            ok=False,
            detail=f"тестовая бронь «{booked.purpose}» может остаться: {exc}; отмените её "
            "в «моих бронях» (следующая проверка тоже отменит её)",
        )
    if not cancelled:
        if booked.refused:  # the site said no: nothing of this check's is there
            return None
        number = f", № {booked.number}" if booked.number else ""
        return PartResult(
            part="уборка",
            ok=False,
            detail=f"тестовая бронь «{booked.purpose}» ({booked.where}{number}) может остаться "
            "на сайте: в «моих бронях» её нет, отменить её я не могу; проверьте и отмените "
            "её на сайте",
        )
    return PartResult(
        part="уборка", ok=True, detail=f"отменена тестовая бронь № {', '.join(cancelled)}"
    )


async def check_site(
    session: ProfileSession,
    context: BrowserContext,
    *,
    username: str,
    today: date,
    shots: Path,
) -> SiteReport:
    """Every part of the profile on the live site; leaves nothing booked."""
    check = _Checker(context, shots)
    booked = _Booked(f"{CHECK_MARK} {secrets.token_hex(3)}")
    # With a fast path, the form's page (what a refused request falls back on) is
    # checked too, by a second booking.
    by_form = _Booked(f"{CHECK_MARK} {secrets.token_hex(3)}") if session.fast_path else None
    try:
        await check.part("вход", lambda: _login(session, username))
        if not check.parts[-1].ok:
            return SiteReport(profile=session.profile_name, url=session.url, parts=check.parts)
        await check.part("мои брони", lambda: _leftovers(session))
        mine_ok = check.parts[-1].ok
        catalogue = await check.part("каталог", lambda: _catalogue(session))
        if not mine_ok:  # a booking it could neither find nor cancel must not be made
            check.skipped("бронь", "«мои брони» не читаются")
        elif catalogue is None or not catalogue.rooms:
            check.skipped("бронь", "нет каталога аудиторий")
        else:
            await check.part("бронь", lambda: _book_and_cancel(session, catalogue, today, booked))
            if by_form is not None and check.parts[-1].ok:
                session.fast_path = False
                try:
                    await check.part(
                        "бронь через форму",
                        lambda: _book_and_cancel(session, catalogue, today, by_form),
                    )
                finally:
                    session.fast_path = True
    finally:
        for made in [b for b in (booked, by_form) if b is not None]:
            if (cleaned := await _clean_up(session, made)) is not None:
                check.parts.append(cleaned)
    return SiteReport(profile=session.profile_name, url=session.url, parts=check.parts)
