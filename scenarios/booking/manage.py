"""``list_bookings`` and ``cancel_booking``: read «Мои брони», cancel with confirmation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from core.booking import Booking, Catalogue
from core.booking.catalogue import Catalogues
from core.commands import Lang
from core.errors import PortalError, ScenarioError
from core.nlu import Decision, Intent
from core.output import Option
from core.scenario import Step, StepContext, StepScenario
from core.texts import Bookings, Common, day_label, tr
from scenarios.booking.labels import span
from scenarios.booking.work import PortalWork

__all__ = ["CancelBooking", "ListBookings", "ManageSlots", "describe"]


class ManageSlots(BaseModel):
    date: dt.date | None = None
    room: list[str] | None = None
    building: str | None = None


class Listed(BaseModel):
    lines: list[str]


class Chosen(BaseModel):
    number: str
    text: str


class Confirmation(BaseModel):
    confirmed: bool


class Cancelled(BaseModel):
    cancelled: bool


def describe(booking: Booking, catalogue: Catalogue, lang: Lang) -> str:
    where = catalogue.building_label(booking.building, lang)
    if catalogue.building(booking.building) is None and booking.building_name:
        where = booking.building_name
    pending = ""
    if booking.status == "pending":
        pending = tr(Bookings.PENDING, lang)
    return (
        f"{booking.room}, {where}, "
        f"{day_label(booking.day, lang)} {span(booking.start, booking.end)}{pending}"
    )


def _matching(bookings: list[Booking], slots: ManageSlots) -> list[Booking]:
    return sorted(
        (
            b
            for b in bookings
            if b.is_live
            and (slots.date is None or b.day == slots.date)
            and (not slots.room or b.room in slots.room)
            and (slots.building is None or b.building == slots.building)
        ),
        key=lambda b: (b.day, b.start, b.building, b.room),
    )


class _PortalScenario(StepScenario[ManageSlots]):
    slot_model = ManageSlots

    def __init__(self, *, work: PortalWork, catalogues: Catalogues) -> None:
        self._work = work
        self._catalogues = catalogues

    def _describe(self, booking: Booking, lang: Lang) -> str:
        return describe(booking, self._catalogues.current, lang)

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        return {
            key: value
            for key, value in super().initial_slots(decision).items()
            if key in ManageSlots.model_fields
        }

    async def screenshot(self, run_id: str) -> bytes | None:
        return await self._work.screenshot(run_id)

    async def release(self, run_id: str) -> None:
        await self._work.release(run_id)


class ListBookings(_PortalScenario):
    name = "list_bookings"
    intents: ClassVar[frozenset[Intent]] = frozenset({Intent.LIST_BOOKINGS})
    title_text = Bookings.LIST_TITLE

    def steps(self) -> Sequence[Step]:
        return [Step("read", Bookings.STEP_READ, self._read)]

    async def _read(self, ctx: StepContext[Any]) -> Listed:
        session = await self._work.session(ctx)
        found = _matching(await session.my_bookings(), ctx.slots)
        return Listed(lines=[f"№ {b.number}: {self._describe(b, ctx.lang)}" for b in found])

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
    intents: ClassVar[frozenset[Intent]] = frozenset({Intent.CANCEL_BOOKING})
    title_text = Bookings.CANCEL_TITLE

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", Bookings.STEP_CHOOSE, self._choose),
            Step("confirm", Common.CONFIRMATION, self._confirm),
            Step("cancel", Bookings.STEP_CANCEL, self._cancel),
        ]

    async def _choose(self, ctx: StepContext[Any]) -> Chosen:
        session = await self._work.session(ctx)
        found = _matching(await session.my_bookings(), ctx.slots)
        if not found:
            raise ScenarioError(ctx.tr(Bookings.NOT_FOUND))
        if len(found) == 1:
            return Chosen(number=found[0].number, text=self._describe(found[0], ctx.lang))
        picked = ctx.answer("which")
        chosen = next((b for b in found if b.number == picked), None)
        if chosen is None:
            ctx.ask(
                "which",
                ctx.tr(Bookings.WHICH),
                [Option(id=b.number, label=self._describe(b, ctx.lang)) for b in found[:8]],
                allow_free_text=False,
            )
        return Chosen(number=chosen.number, text=self._describe(chosen, ctx.lang))

    async def _confirm(self, ctx: StepContext[Any]) -> Confirmation:
        answer = ctx.answer("confirm")
        if answer is None:
            what = ctx.result("choose", Chosen).text
            ctx.ask(
                "confirm",
                ctx.tr(Bookings.CONFIRM, what=what),
                [
                    Option(id="yes", label=ctx.tr(Common.YES)),
                    Option(id="no", label=ctx.tr(Common.NO)),
                ],
                allow_free_text=False,
            )
        return Confirmation(confirmed=answer == "yes")

    async def _cancel(self, ctx: StepContext[Any]) -> Cancelled:
        if not ctx.result("confirm", Confirmation).confirmed:
            return Cancelled(cancelled=False)
        session = await self._work.session(ctx)
        number = ctx.result("choose", Chosen).number
        active = {b.number for b in await session.my_bookings() if b.is_live}
        if number in active:  # a resumed run may have cancelled it already
            await session.cancel(number)
        if number in {b.number for b in await session.my_bookings() if b.is_live}:
            raise PortalError(ctx.tr(Bookings.STILL_THERE, number=number))
        return Cancelled(cancelled=True)

    def summary(self, ctx: StepContext[Any]) -> str:
        what = ctx.result("choose", Chosen).text
        if ctx.result("cancel", Cancelled).cancelled:
            return ctx.tr(Bookings.CANCELLED, what=what)
        return ctx.tr(Bookings.KEPT)
