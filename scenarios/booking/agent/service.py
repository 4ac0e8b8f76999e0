"""``BookingAgent``: what the booking job's agent tools do, on the same core the Telegram
bot uses (``core.agent.AgentRuns`` starts and follows the runs)."""

from __future__ import annotations

from core.agent import AgentRuns, ProgressFn
from core.authz import Roles
from core.errors import AgentError
from core.site.catalogue import Catalogues
from scenarios.booking.agent.catalogue import catalogue_view
from scenarios.booking.agent.models import (
    BookingAnswer,
    BookingInfo,
    BookingPlan,
    CancelAnswer,
    CancelRequest,
    CatalogueView,
    FoundRooms,
    RoomsQuery,
    ScheduleInfo,
    ScheduleRequest,
)
from scenarios.booking.agent.ports import BookingDesk, ScheduleDesk

__all__ = ["BookingAgent"]


class BookingAgent:
    def __init__(
        self,
        *,
        runs: AgentRuns,
        desk: BookingDesk,
        schedules: ScheduleDesk,
        catalogues: Catalogues,
        roles: Roles | None = None,
    ) -> None:
        self._runs = runs
        self._roles = roles or Roles()
        self._desk = desk
        self._schedules = schedules
        self._catalogues = catalogues

    # --- reading -----------------------------------------------------------------------

    async def find_rooms(self, user_id: int, query: RoomsQuery) -> FoundRooms:
        lang, tz = await self._runs.user(user_id)
        self._desk.check(query, lang=lang, today=self._runs.clock.now().astimezone(tz).date())
        return await self._desk.find(user_id, lang, query)

    async def bookings(self, user_id: int) -> list[BookingInfo]:
        """The bookings the user may act on: their requests' (everyone's, for the club's
        administrators)."""
        lang, _ = await self._runs.user(user_id)
        return await self._desk.bookings(self._roles.actor(user_id), lang)

    def catalogue(self) -> CatalogueView:
        return catalogue_view(self._catalogues.current)

    # --- booking and cancelling, each in two steps --------------------------------------

    async def book(
        self,
        user_id: int,
        query: RoomsQuery,
        *,
        confirm_token: str | None = None,
        progress: ProgressFn | None = None,
    ) -> BookingAnswer:
        """Without ``confirm_token``: the exact plan and a token confirming it. With it:
        the plan booked by a run (the same run however often it is confirmed)."""
        confirmations = self._runs.confirmations
        if confirm_token is not None:
            record = await confirmations.take(
                confirm_token, user_id=user_id, action="book", request=query
            )
            plan = BookingPlan.model_validate_json(record.plan_json)
            run = await self._runs.confirmed(record, self._desk.booking_run(plan, query), progress)
            return BookingAnswer(plan=plan, run=run)
        found = await self.find_rooms(user_id, query)
        place = next((b for b in found.buildings if b.suggested), None)
        if place is None:
            raise AgentError("no rooms are free for this request", hint="try another time")
        plan = BookingPlan(
            building=place.building, building_name=place.building_name, date=query.date,
            start=query.start, end=query.end, rooms=place.suggested, capacity=query.capacity,
        )  # fmt: skip
        token, expires = await confirmations.offer(
            user_id=user_id, action="book", request=query, plan=plan
        )
        return BookingAnswer(plan=plan, confirm_token=token, expires_at=expires)

    async def cancel(
        self,
        user_id: int,
        number: str,
        *,
        confirm_token: str | None = None,
        progress: ProgressFn | None = None,
    ) -> CancelAnswer:
        request = CancelRequest(number=number)
        confirmations = self._runs.confirmations
        if confirm_token is not None:
            record = await confirmations.take(
                confirm_token, user_id=user_id, action="cancel", request=request
            )
            booking = BookingInfo.model_validate_json(record.plan_json)
            run = await self._runs.confirmed(record, self._desk.cancel_run(booking), progress)
            return CancelAnswer(booking=booking, run=run)
        found = next((b for b in await self.bookings(user_id) if b.number == number), None)
        if found is None:
            raise AgentError(f"no live booking {number} of yours", hint="see my_bookings")
        token, expires = await confirmations.offer(
            user_id=user_id, action="cancel", request=request, plan=found
        )
        return CancelAnswer(booking=found, confirm_token=token, expires_at=expires)

    # --- schedules ---------------------------------------------------------------------

    async def schedules(self, user_id: int) -> list[ScheduleInfo]:
        lang, _ = await self._runs.user(user_id)
        return await self._schedules.of_owner(user_id, lang)

    async def create_schedule(self, user_id: int, request: ScheduleRequest) -> ScheduleInfo:
        lang, tz = await self._runs.user(user_id)
        slots = self._desk.schedule_slots(request, lang=lang)
        return await self._schedules.create(
            owner_id=user_id, chat_id=user_id, weekdays=list(request.weekdays), slots=slots,
            timezone=tz.key, lang=lang,
        )  # fmt: skip
