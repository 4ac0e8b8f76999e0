"""``list_bookings`` and ``cancel_booking``: read «Мои брони», cancel with confirmation.

The rooms one request booked are one thing to the user: listed on one line
(«Чт 26.11 18:00–20:00, Корпус на Чайковского: 101, 102, 103») and cancelled together or
one by one, with one confirmation. A request's bookings carry its run's mark
(``run_of``); bookings made elsewhere are grouped by building and time. A member sees and
cancels only their own bookings (``BookingOwners``); an administrator, everyone's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, model_validator

from core.calendar import CalendarEvent
from core.commands import Lang
from core.errors import PortalError, ScenarioError
from core.nlu import DATE_OPTIONS, Decision
from core.output import Option
from core.scenario import Shortcut, Step, StepContext, StepScenario
from core.site.catalogue import Catalogues
from core.site.models import Catalogue
from core.texts import Calendar, Common, day_label, tr
from scenarios.booking.events import BookingsCancelled
from scenarios.booking.marks import run_of
from scenarios.booking.models import Booking
from scenarios.booking.owners import BookingOwners
from scenarios.booking.texts import BookingGuide, Bookings, join_rooms, span
from scenarios.booking.vocabulary import BookingIntent
from scenarios.booking.vocabulary.words import BookingWords
from scenarios.booking.work import PortalWork

__all__ = ["CancelBooking", "ListBookings", "ManageSlots", "describe", "group_requests"]


class ManageSlots(BaseModel):
    date: dt.date | None = None
    room: list[str] | None = None
    building: str | None = None


class Listed(BaseModel):
    lines: list[str]
    upcoming: list[CalendarEvent] = []  # every room listed, for the calendar file


class Chosen(BaseModel):
    numbers: list[str]  # the site's booking numbers: one request, or one room of it
    text: str

    @model_validator(mode="before")
    @classmethod
    def _one_number(cls, data: Any) -> Any:
        """A cancel checkpointed before requests were one thing named one booking."""
        if isinstance(data, dict) and "number" in data and "numbers" not in data:
            return {"numbers": [data["number"]], "text": data.get("text", "")}
        return data


class Confirmation(BaseModel):
    confirmed: bool


class Cancelled(BaseModel):
    cancelled: bool


def _where(booking: Booking, catalogue: Catalogue, lang: Lang) -> str:
    if catalogue.building(booking.building) is None and booking.building_name:
        return booking.building_name
    return catalogue.building_label(booking.building, lang)


def _rooms(bookings: Sequence[Booking], lang: Lang) -> str:
    pending = tr(Bookings.PENDING, lang)
    return join_rooms([b.room + (pending if b.status == "pending" else "") for b in bookings])


def describe(bookings: Sequence[Booking], catalogue: Catalogue, lang: Lang) -> str:
    """«201, 202, Главный корпус, чт 26.11 18:00–20:00»: rooms of one request."""
    first = bookings[0]
    return (
        f"{_rooms(bookings, lang)}, {_where(first, catalogue, lang)}, "
        f"{day_label(first.day, lang)} {span(first.start, first.end)}"
    )


def _line(bookings: Sequence[Booking], catalogue: Catalogue, lang: Lang) -> str:
    """«Чт 26.11 18:00–20:00, Корпус на Чайковского: 101, 102, 103»."""
    first = bookings[0]
    when = f"{day_label(first.day, lang)} {span(first.start, first.end)}"
    where = _where(first, catalogue, lang)
    return f"{when[:1].upper()}{when[1:]}, {where}: {_rooms(bookings, lang)}"


def group_requests(bookings: list[Booking], slots: ManageSlots) -> list[list[Booking]]:
    """The live bookings the slots name, one list per request, in time order."""
    found: dict[tuple[object, ...], list[Booking]] = {}
    for b in sorted(bookings, key=lambda b: (b.day, b.start, b.building, b.room)):
        if (
            b.is_live
            and (slots.date is None or b.day == slots.date)
            and (not slots.room or b.room in slots.room)
            and (slots.building is None or b.building == slots.building)
        ):
            key = (b.day, b.start, b.end, b.building, run_of(b.purpose))
            found.setdefault(key, []).append(b)
    return list(found.values())


class _PortalScenario(BookingWords, StepScenario[ManageSlots]):
    slot_model = ManageSlots

    def __init__(self, *, work: PortalWork, catalogues: Catalogues, owners: BookingOwners) -> None:
        self._work = work
        self._catalogues = catalogues
        self._owners = owners

    def _describe(self, bookings: Sequence[Booking], lang: Lang) -> str:
        return describe(bookings, self._catalogues.current, lang)

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        kept = (*ManageSlots.model_fields, DATE_OPTIONS)
        return {key: value for key, value in super().initial_slots(decision).items() if key in kept}

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        # A day said two ways («в среду 1 декабря», a Tuesday) is asked before it narrows
        # the list: both days are offered.
        return ["date"] if slots.get(DATE_OPTIONS) and "date" not in slots else []

    async def screenshot(self, run_id: str) -> bytes | None:
        return await self._work.screenshot(run_id)

    async def release(self, run_id: str) -> None:
        await self._work.release(run_id)


class ListBookings(_PortalScenario):
    name = "list_bookings"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.LIST_BOOKINGS})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.LIST_BOOKINGS: "show the user's bookings"
    }
    shortcuts = (Shortcut("bookings", BookingIntent.LIST_BOOKINGS, Bookings.MENU),)
    title_text = Bookings.LIST_TITLE

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(BookingGuide.LIST, lang)]

    def steps(self) -> Sequence[Step]:
        return [Step("read", Bookings.STEP_READ, self._read)]

    async def _read(self, ctx: StepContext[Any]) -> Listed:
        session = await self._work.session(ctx)
        theirs = await self._owners.theirs(ctx.actor, await session.my_bookings())
        requests = group_requests(theirs, ctx.slots)
        catalogue = self._catalogues.current
        return Listed(
            lines=[_line(request, catalogue, ctx.lang) for request in requests],
            upcoming=[
                CalendarEvent(
                    uid=b.number,
                    title=ctx.tr(Calendar.TITLE, room=b.room),
                    location=f"{b.room}, {_where(b, catalogue, ctx.lang)}",
                    day=b.day,
                    start=b.start,
                    end=b.end,
                )
                for request in requests
                for b in request
            ],
        )

    def calendar(self, ctx: StepContext[Any]) -> list[CalendarEvent]:
        return ctx.result("read", Listed).upcoming

    def summary(self, ctx: StepContext[Any]) -> str:
        lines = ctx.result("read", Listed).lines
        day = ctx.slots.date
        if not lines:
            if day:
                return ctx.tr(Bookings.NONE_ON_DAY, day=day_label(day, ctx.lang))
            return ctx.tr(Bookings.NONE)
        head = ctx.tr(Bookings.HEAD)
        return head + "\n" + "\n".join(f"• {line}" for line in lines)


class CancelBooking(_PortalScenario):
    name = "cancel_booking"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.CANCEL_BOOKING})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.CANCEL_BOOKING: "cancel a booking; also a negated one: "
        '"I don\'t need the room on Friday"'
    }
    title_text = Bookings.CANCEL_TITLE

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(BookingGuide.CANCEL, lang)]

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", Bookings.STEP_CHOOSE, self._choose),
            Step("confirm", Common.CONFIRMATION, self._confirm),
            Step("cancel", Bookings.STEP_CANCEL, self._cancel),
        ]

    async def _choose(self, ctx: StepContext[Any]) -> Chosen:
        session = await self._work.session(ctx)
        every = await session.my_bookings()
        requests = group_requests(await self._owners.theirs(ctx.actor, every), ctx.slots)
        if not requests:
            others = group_requests(every, ctx.slots)
            raise ScenarioError(ctx.tr(Bookings.NOT_YOURS if others else Bookings.NOT_FOUND))
        request = requests[0]
        if len(requests) > 1:
            # a request is named by its first booking's number: stable while it lives
            picked = ctx.answer("which")
            chosen = next((r for r in requests if r[0].number == picked), None)
            if chosen is None:
                ctx.ask(
                    "which",
                    ctx.tr(Bookings.WHICH),
                    [
                        Option(id=r[0].number, label=self._describe(r, ctx.lang))
                        for r in requests[:8]
                    ],
                    allow_free_text=False,
                )
            request = chosen
        if len(request) > 1:
            request = self._rooms_to_cancel(ctx, request)
        return Chosen(numbers=[b.number for b in request], text=self._describe(request, ctx.lang))

    def _rooms_to_cancel(self, ctx: StepContext[Any], request: list[Booking]) -> list[Booking]:
        """All rooms of the request, or the one the user picks."""
        picked = ctx.answer("rooms")
        if picked == "all":
            return request
        one = [b for b in request if b.number == picked]
        if not one:
            every = Bookings.ALL_ROOMS_WORDS.get(len(request), Bookings.ALL_ROOMS)
            ctx.ask(
                "rooms",
                ctx.tr(Bookings.WHICH_ROOMS),
                [Option(id="all", label=ctx.tr(every, count=len(request)))]
                + [
                    Option(id=b.number, label=ctx.tr(Bookings.ONE_ROOM, room=b.room))
                    for b in request[:8]
                ],
                allow_free_text=False,
            )
        return one

    async def _confirm(self, ctx: StepContext[Any]) -> Confirmation:
        what = ctx.result("choose", Chosen).text
        return Confirmation(confirmed=ctx.confirm("confirm", ctx.tr(Bookings.CONFIRM, what=what)))

    async def _cancel(self, ctx: StepContext[Any]) -> Cancelled:
        if not ctx.result("confirm", Confirmation).confirmed:
            return Cancelled(cancelled=False)
        session = await self._work.session(ctx)
        numbers = ctx.result("choose", Chosen).numbers
        live = {b.number for b in await session.my_bookings() if b.is_live}
        for number in numbers:
            if number in live:  # a resumed run may have cancelled it already
                await session.cancel(number)
        live = {b.number for b in await session.my_bookings() if b.is_live}
        if gone := [number for number in numbers if number not in live]:
            # Told before a failure on others: these are gone either way (their reminders).
            await ctx.emit(BookingsCancelled(chat_id=ctx.chat_id, run_id=ctx.run_id, numbers=gone))
        if still := [number for number in numbers if number in live]:
            raise PortalError(ctx.tr(Bookings.STILL_THERE, number=", ".join(still)))
        return Cancelled(cancelled=True)

    def summary(self, ctx: StepContext[Any]) -> str:
        chosen = ctx.result("choose", Chosen)
        if ctx.result("cancel", Cancelled).cancelled:
            done = Bookings.CANCELLED_MANY if len(chosen.numbers) > 1 else Bookings.CANCELLED
            return ctx.tr(done, what=chosen.text)
        return ctx.tr(Bookings.KEPT)
