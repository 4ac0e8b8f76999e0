"""``AgentService``: what the agent API (the MCP server) does, on the same core the
Telegram bot uses. A view maps its tools onto these methods and nothing else.

Runs it starts belong to the user's private chat (a Telegram private chat's id is the
user's id), so they show in the user's /status, and their answers and questions are
the chat's owed replies (``core.replies``), sent to Telegram like any other.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import structlog

from core.agent.catalogue import catalogue_view
from core.agent.confirm import Confirmations
from core.agent.models import (
    BookingAnswer,
    BookingInfo,
    BookingPlan,
    CancelAnswer,
    CancelRequest,
    CatalogueView,
    FoundRooms,
    RoomsQuery,
    RunOutcome,
    ScheduleInfo,
    ScheduleRequest,
)
from core.agent.ports import BookingDesk, RunRequest, ScheduleDesk
from core.agent.watch import ProgressFn, RunWatch, outcome_of
from core.authz import Roles
from core.clock import Clock
from core.commands import Lang, as_lang
from core.errors import AgentError
from core.manager import NLUManager
from core.site.catalogue import Catalogues
from core.store import ConfirmationRecord, RunStore, UserStore

__all__ = ["AgentService"]

log = structlog.get_logger("clubman.agent")


class AgentService:
    def __init__(
        self,
        *,
        manager: NLUManager,
        desk: BookingDesk,
        confirmations: Confirmations,
        runs: RunStore,
        users: UserStore,
        schedules: ScheduleDesk,
        catalogues: Catalogues,
        clock: Clock,
        default_timezone: str,
        run_wait: timedelta = timedelta(minutes=5),
        roles: Roles | None = None,
    ) -> None:
        self._manager = manager
        self._roles = roles or Roles()
        self._desk = desk
        self._confirmations = confirmations
        self._runs = runs
        self._users = users
        self._schedules = schedules
        self._catalogues = catalogues
        self._clock = clock
        self._default_tz = default_timezone
        self._run_wait = run_wait
        self._watch = RunWatch(runs, manager.runner)

    async def _user(self, user_id: int) -> tuple[Lang, ZoneInfo]:
        user = await self._users.get_or_create(user_id)
        return as_lang(user.language), ZoneInfo(user.timezone or self._default_tz)

    # --- reading -----------------------------------------------------------------------

    async def find_rooms(self, user_id: int, query: RoomsQuery) -> FoundRooms:
        lang, tz = await self._user(user_id)
        self._desk.check(query, lang=lang, today=self._clock.now().astimezone(tz).date())
        return await self._desk.find(user_id, lang, query)

    async def bookings(self, user_id: int) -> list[BookingInfo]:
        """The bookings the user may act on: their requests' (everyone's, for the club's
        administrators)."""
        lang, _ = await self._user(user_id)
        return await self._desk.bookings(self._roles.actor(user_id), lang)

    def catalogue(self) -> CatalogueView:
        return catalogue_view(self._catalogues.current)

    async def run_status(self, user_id: int, run_id: str) -> RunOutcome:
        run = await self._runs.get(run_id)
        if run is None or run.user_id != user_id:  # another user's run reads as none
            raise AgentError(f"no run {run_id} of yours")
        return outcome_of(run)

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
        if confirm_token is not None:
            record = await self._confirmations.take(
                confirm_token, user_id=user_id, action="book", request=query
            )
            plan = BookingPlan.model_validate_json(record.plan_json)
            run = await self._confirmed(record, self._desk.booking_run(plan, query), progress)
            return BookingAnswer(plan=plan, run=run)
        found = await self.find_rooms(user_id, query)
        place = next((b for b in found.buildings if b.suggested), None)
        if place is None:
            raise AgentError("no rooms are free for this request", hint="try another time")
        plan = BookingPlan(
            building=place.building, building_name=place.building_name, date=query.date,
            start=query.start, end=query.end, rooms=place.suggested, capacity=query.capacity,
        )  # fmt: skip
        token, expires = await self._confirmations.offer(
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
        if confirm_token is not None:
            record = await self._confirmations.take(
                confirm_token, user_id=user_id, action="cancel", request=request
            )
            booking = BookingInfo.model_validate_json(record.plan_json)
            run = await self._confirmed(record, self._desk.cancel_run(booking), progress)
            return CancelAnswer(booking=booking, run=run)
        found = next((b for b in await self.bookings(user_id) if b.number == number), None)
        if found is None:
            raise AgentError(f"no live booking {number} of yours", hint="see my_bookings")
        token, expires = await self._confirmations.offer(
            user_id=user_id, action="cancel", request=request, plan=found
        )
        return CancelAnswer(booking=found, confirm_token=token, expires_at=expires)

    async def _confirmed(
        self, record: ConfirmationRecord, request: RunRequest, progress: ProgressFn | None
    ) -> RunOutcome:
        """Start the confirmed run unless it exists (a repeated confirmation, or one
        after a restart: the runner resumed it), then follow it."""
        if await self._runs.get(record.run_id) is None:
            if self._confirmations.expired(record):
                raise AgentError("this confirm token has expired", hint="ask for a new plan")
            lang, _ = await self._user(record.user_id)
            await self._manager.control.start_scenario(
                chat_id=record.user_id, user_id=record.user_id, scenario=request.scenario,
                slots=request.slots, answers=request.answers, lang=lang, run_id=record.run_id,
            )  # fmt: skip
            log.info("agent.run_started", run_id=record.run_id, scenario=request.scenario)
        return await self._watch.settle(
            record.run_id, timeout=self._run_wait.total_seconds(), progress=progress
        )

    # --- schedules ---------------------------------------------------------------------

    async def schedules(self, user_id: int) -> list[ScheduleInfo]:
        lang, _ = await self._user(user_id)
        return await self._schedules.of_owner(user_id, lang)

    async def create_schedule(self, user_id: int, request: ScheduleRequest) -> ScheduleInfo:
        lang, tz = await self._user(user_id)
        slots = self._desk.schedule_slots(request, lang=lang)
        return await self._schedules.create(
            owner_id=user_id, chat_id=user_id, weekdays=list(request.weekdays), slots=slots,
            timezone=tz.key, lang=lang,
        )  # fmt: skip
