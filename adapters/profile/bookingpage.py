"""A booking's own page, by the profile: reading it, and cancelling there."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from functools import partial

from playwright.async_api import Dialog, Page

from adapters.profile.choosing import chosen
from adapters.profile.model import BookingPage
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Find, Pick, sought
from adapters.profile.reading import (
    as_date,
    as_span,
    as_time,
    holds,
    probes_of,
    read_terms,
    value,
)
from core.browser.retry import Transient
from core.browser.summary import summarize
from core.site.errors import UnexpectedPage
from scenarios.booking.models import Booking

__all__ = [
    "cancel_on_booking_page",
    "confirming_dialogs",
    "open_booking_page",
    "read_booking_page",
    "shown_instead",
]


_FIELDS = {
    "number": "номера брони",
    "date": "даты",
    "time": "времени",
    "start": "времени начала",
    "end": "времени окончания",
}


async def read_booking_page(
    nav: Navigator, page: Page, number: str, codes: Mapping[str, str], *, load: bool = True
) -> Booking:
    """Booking ``number`` from its own page (loaded first unless ``load`` is False)."""
    spec: BookingPage = nav.profile.booking_page
    if load and not await open_booking_page(nav, page, number):
        raise UnexpectedPage(f"Бронь № {number} не найдена на сайте", await summarize(page))
    # Without a number pick, the page at the booking's address is the booking.
    alternatives = {
        "number": spec.number, "building": spec.building, "room": spec.room,
        "date": spec.date, "time": spec.time, "start": spec.start, "end": spec.end,
        "purpose": spec.purpose,
    }  # fmt: skip
    terms = await read_terms(
        page,
        probes=probes_of(p for picks in alternatives.values() for p in picks or ()),
        has=[spec.cancelled.has] if spec.cancelled and spec.cancelled.has else [],
    )

    def reads(name: str, pick: Pick) -> bool:
        text = value(pick, terms.self, terms=terms.pairs)
        if name == "date":
            return as_date(pick, text) is not None
        if name == "time":
            return (span := as_span(pick, text)) is not None and span[1] is not None
        if name in ("start", "end"):
            return as_time(pick, text) is not None
        return text == number if name == "number" else bool(text)

    picks = {
        name: chosen(alts, partial(reads, name), path=f"booking_page.{name}", told=nav.finder)
        for name, alts in alternatives.items()
        if alts is not None
    }
    shown = {
        name: value(picks[name], terms.self, terms=terms.pairs) if name in picks else number
        for name in alternatives
    }
    day = as_date(picks["date"], shown["date"])
    if "time" in picks:
        span = as_span(picks["time"], shown["time"])
        start, end = span if span is not None else (None, None)
    else:  # the model takes «start» and «end» without «time»
        start = as_time(picks["start"], shown["start"])
        end = as_time(picks["end"], shown["end"])
    spans = "time" in picks
    unread = next(
        (
            field
            for field, fails in (
                ("number", shown["number"] != number),
                ("date", day is None),
                ("time" if spans else "start", start is None),
                ("time" if spans else "end", end is None or (start is not None and end <= start)),
            )
            if fails
        ),
        None,
    )
    if unread is not None:
        # The field and the words the site shows for it, and its line: what changed.
        tried, called = sought(alternatives[unread])
        raise await nav.finder.mismatch(
            page, spec.missing or (), path=f"booking_page.{unread}", what="", tried=tried,
            said=f"Не удалось прочитать бронь № {number}: на её странице нет "
            f"{_FIELDS[unread]}{called}",
        )  # fmt: skip
    name = shown["building"]
    building = codes.get(name, name)
    cancelled = spec.cancelled is not None and holds(spec.cancelled, terms.self)
    return Booking(
        number=number,
        building=building,
        building_name=name,
        room=shown["room"],
        room_id="",
        day=day,
        start=start,
        end=end,
        purpose=shown["purpose"],
        status="cancelled" if cancelled else "active",
    )


async def open_booking_page(nav: Navigator, page: Page, number: str) -> bool:
    """Load booking ``number``'s page; False when the site says there is no such booking
    (a page its scripts draw is waited for)."""
    spec = nav.profile.booking_page
    await nav.goto(page, nav.url(spec.url, {"number": number}))
    if spec.wait is not None:
        await nav.settle(page)
        await nav.wait_for(page, spec.wait, path="booking_page.wait",
                           what="брони на её странице", instead=shown_instead(spec))  # fmt: skip
    return spec.missing is None or (
        await nav.finder.maybe(page, spec.missing, path="booking_page.missing") is None
    )


def shown_instead(spec: BookingPage) -> tuple[str, Find] | None:
    """What a booking's page shows instead of it when there is no such booking, with
    its path (waited for beside ``wait``, each found at its own path)."""
    return None if spec.missing is None else ("booking_page.missing", spec.missing)


async def cancel_on_booking_page(
    nav: Navigator, page: Page, number: str, *, pressing: Callable[[], None]
) -> bool:
    """Cancel booking ``number`` on its own page (``pressing`` is told just before the
    control is pressed); False when it is not there to cancel (no such booking, or
    cancelled already). The caller has seen it listed as the user's: a live booking's page
    with no cancel control is the site changed (``ProfileMismatch``, or the LLM's pick),
    never «not found». ``Transient`` when the page, read again, still shows it live."""
    cancel = nav.profile.cancel
    if not await open_booking_page(nav, page, number) or await _cancelled_here(nav, page):
        return False
    control = await nav.finder.control(
        page, cancel.control, path="cancel.control", what="кнопки отмены"
    )
    async with confirming_dialogs(page, native=cancel.confirm == "native") as asked:
        pressing()
        await control.click()
        if isinstance(cancel.confirm, tuple):
            await nav.wait_for(page, cancel.confirm, path="cancel.confirm",
                               what="подтверждения отмены")  # fmt: skip
            await (await nav.finder.control(
                page, cancel.confirm, path="cancel.confirm", what="подтверждения отмены"
            )).click()  # fmt: skip
        # Done when the control pressed is gone (the page shows the booking cancelled).
        await control.wait_for(state="hidden", timeout=nav.timeout_ms)
    # Gone (a site that deletes a cancelled booking) or shown cancelled: done.
    if await open_booking_page(nav, page, number) and not await _cancelled_here(nav, page):
        raise Transient(f"booking {number} is still live after cancelling ({asked})")
    return True


async def _cancelled_here(nav: Navigator, page: Page) -> bool:
    cancelled = nav.profile.booking_page.cancelled
    if cancelled is None:  # a site that deletes: a page that shows the booking is live
        return False
    terms = await read_terms(page, has=[cancelled.has] if cancelled.has else [])
    return holds(cancelled, terms.self)


@asynccontextmanager
async def confirming_dialogs(page: Page, *, native: bool) -> AsyncIterator[list[str]]:
    """While open, the browser's own «OK / Cancel» questions are accepted (``native``);
    yields the questions asked."""
    asked: list[str] = []

    async def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        await dialog.accept()

    if native:
        page.on("dialog", accept)
    try:
        yield asked
    finally:
        if native:
            page.remove_listener("dialog", accept)
