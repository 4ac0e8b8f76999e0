"""``BookingScheduler``: books each schedule's dates as they enter the portal's window.

The ``Schedule`` documents are the truth; APScheduler (``AsyncIOScheduler``, jobs in
memory) is only the timer. At start-up the jobs are rebuilt from the documents (job id =
schedule id) and a tick runs at once, so dates missed while the bot was down are booked
then; the tick repeats every ``tick_seconds`` (retries, catch-up, other processes' new
schedules). Jobs coalesce missed runs and have a misfire grace; firing itself
(``firing.ScheduleFirer``) is idempotent, so a late or repeated run books nothing twice.

In the process that has the messenger, the timer also sends the reminders of bookings
that are due (``reminders``): at once at start-up, then every ``remind_every_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from types import TracebackType
from zoneinfo import ZoneInfo

import structlog
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from core.clock import Clock
from core.dispatcher import ChatDispatcher
from core.errors import ClubError
from core.events import BaseEvent, EventBus, RunFinished
from core.site.catalogue import Catalogues
from scenarios.booking.records import BookingStore, Schedule, ScheduleStatus
from scenarios.booking.reminders import Reminders
from scenarios.booking.schedules.book import ScheduleChanged
from scenarios.booking.schedules.firing import ScheduleFirer
from scenarios.booking.schedules.lead import lead_for
from scenarios.booking.schedules.trigger import WindowTrigger
from scenarios.booking.settings import SchedulerSettings

__all__ = ["REMIND_JOB", "TICK_JOB", "BookingScheduler"]

log = structlog.get_logger("clubman.scheduler")

TICK_JOB = "schedules:tick"
REMIND_JOB = "reminders:send"
_SOON = ":soon"  # suffix of a one-off job that fires a new schedule right away


class BookingScheduler:
    def __init__(
        self,
        *,
        storage: BookingStore,
        manager: ChatDispatcher,
        clock: Clock,
        settings: SchedulerSettings,
        catalogues: Catalogues,
        owner_id: str,
        bus: EventBus | None = None,
        reminders: Reminders | None = None,
    ) -> None:
        """``reminders``: sent by this process (the one with the messenger), due ones
        every ``remind_every_seconds``."""
        self._storage = storage
        self._reminders = reminders
        self._manager = manager
        self._clock = clock
        self._settings = settings
        self._catalogues = catalogues
        self._owner = owner_id
        self._closed = False
        self._firer = ScheduleFirer(
            storage=storage,
            manager=manager,
            settings=settings,
            catalogues=catalogues,
            owner_id=owner_id,
        )
        self._timer = AsyncIOScheduler(
            timezone=dt.UTC,
            job_defaults={
                "coalesce": settings.coalesce,
                "misfire_grace_time": settings.misfire_grace_seconds,
                "max_instances": 1,
            },
        )
        if bus is not None:
            bus.subscribe(self._on_event)

    @property
    def settings(self) -> SchedulerSettings:
        return self._settings

    # --- lifecycle ----------------------------------------------------------------------

    async def __aenter__(self) -> BookingScheduler:
        await self.rebuild()
        self._timer.start()
        self._timer.add_job(
            self._tick_job,
            IntervalTrigger(seconds=self._settings.tick_seconds, timezone=dt.UTC),
            id=TICK_JOB,
            next_run_time=dt.datetime.now(dt.UTC),  # catch up at once after downtime
            replace_existing=True,
        )
        if self._reminders is not None:
            self._timer.add_job(
                self._remind_job,
                IntervalTrigger(seconds=self._settings.remind_every_seconds, timezone=dt.UTC),
                id=REMIND_JOB,
                next_run_time=dt.datetime.now(dt.UTC),  # those that fell due while down
                replace_existing=True,
            )
        log.info("scheduler.started", owner=self._owner, jobs=len(self.job_ids()))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._closed = True
        if self._timer.running:
            self._timer.shutdown(wait=False)
            await asyncio.sleep(0)  # AsyncIOScheduler shuts down on the loop's next turn

    def job_ids(self) -> list[str]:
        """Ids of the schedules that have a timer job."""
        return sorted(
            j.id
            for j in self._timer.get_jobs()
            if j.id not in (TICK_JOB, REMIND_JOB) and _SOON not in j.id
        )

    def next_fire_time(self, schedule_id: str) -> dt.datetime | None:
        job = self._timer.get_job(schedule_id)
        when: dt.datetime | None = getattr(job, "next_run_time", None) if job else None
        return when

    # --- jobs ---------------------------------------------------------------------------

    async def rebuild(self) -> int:
        """Make the timer's jobs match the live schedules; returns how many are active."""
        active = {
            str(s.id): s
            for s in await self._storage.schedules.live()
            if s.status is ScheduleStatus.ACTIVE
        }
        for job_id in self.job_ids():
            if job_id not in active:
                self._remove_job(job_id)
        for schedule in active.values():
            self._put_job(schedule)
        return len(active)

    def _trigger(self, schedule: Schedule) -> WindowTrigger:
        return WindowTrigger(
            schedule.weekdays,
            tz=ZoneInfo(schedule.timezone),
            lead_days=lead_for(self._settings, self._catalogues.current, schedule.slots),
            at=self._settings.fire_at,
        )

    def _put_job(self, schedule: Schedule) -> None:
        schedule_id = str(schedule.id)
        trigger = self._trigger(schedule)
        job = self._timer.get_job(schedule_id)
        if job is not None and job.trigger.signature() == trigger.signature():
            return
        self._timer.add_job(
            self._fire_job, trigger, args=[schedule_id], id=schedule_id, replace_existing=True
        )

    def _remove_job(self, job_id: str) -> None:
        with contextlib.suppress(JobLookupError):
            self._timer.remove_job(job_id)

    async def add(self, schedule: Schedule | str) -> None:
        """Start timing a (new or resumed) schedule; its due dates fire right away."""
        loaded = (
            await self._storage.schedules.get(schedule) if isinstance(schedule, str) else schedule
        )
        if loaded is None or loaded.status is not ScheduleStatus.ACTIVE:
            if loaded is not None:
                await self.remove(str(loaded.id))
            return
        schedule_id = str(loaded.id)
        self._put_job(loaded)
        soon = dt.datetime.now(dt.UTC) + dt.timedelta(
            seconds=self._settings.first_fire_delay_seconds
        )
        self._timer.add_job(
            self._fire_job,
            DateTrigger(run_date=soon, timezone=dt.UTC),
            args=[schedule_id],
            id=schedule_id + _SOON,
            replace_existing=True,
        )

    async def remove(self, schedule_id: str) -> None:
        """Stop timing a schedule (paused or deleted)."""
        self._remove_job(schedule_id)
        self._remove_job(schedule_id + _SOON)

    async def _fire_job(self, schedule_id: str) -> None:
        # A job's task inherits the context of whoever added it (a run): not its ids.
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(schedule_id=schedule_id)
        try:
            schedule = await self._storage.schedules.get(schedule_id)
            if schedule is not None:
                await self.fire_schedule(schedule, self._clock.now())
        except Exception:  # a timer job must not die on a passing failure
            log.exception("scheduler.fire_failed", schedule_id=schedule_id)

    async def _tick_job(self) -> None:
        structlog.contextvars.clear_contextvars()
        try:
            await self.tick()
        except Exception:
            log.exception("scheduler.tick_failed")

    async def _remind_job(self) -> None:
        structlog.contextvars.clear_contextvars()
        try:
            await self.remind(self._clock.now())
        except Exception:
            log.exception("scheduler.remind_failed")

    # --- the work (tests drive these with a manual clock) -------------------------------

    async def tick(self, now: dt.datetime | None = None) -> list[str]:
        """Sync jobs with the documents, settle firings, fire what is due; returns run ids."""
        moment = now or self._clock.now()
        await self.rebuild()
        await self.reconcile(moment)
        return await self.fire_due(moment)

    async def remind(self, now: dt.datetime) -> int:
        """Send the reminders due at ``now``; how many were handed to the view."""
        if self._closed or self._reminders is None:
            return 0
        return await self._reminders.send_due(now)

    async def fire_due(self, now: dt.datetime) -> list[str]:
        """Fire every active schedule's due dates; returns the ids of the runs started."""
        started: list[str] = []
        for schedule in await self._storage.schedules.live():
            try:
                started += await self.fire_schedule(schedule, now)
            except ClubError:  # one schedule's trouble must not stop the others
                log.exception("scheduler.fire_failed", schedule_id=str(schedule.id))
        return started

    async def fire_schedule(self, schedule: Schedule, now: dt.datetime) -> list[str]:
        if self._closed:
            return []
        return await self._firer.fire_schedule(schedule, now)

    async def reconcile(self, now: dt.datetime) -> None:
        await self._firer.reconcile(now)

    async def _on_event(self, event: BaseEvent) -> None:
        if self._closed:
            return
        if isinstance(event, ScheduleChanged):  # from the schedule scenarios' store
            if not self._timer.running:
                return  # the start-up rebuild reads every schedule anyway
            if event.status == "active":
                await self.add(event.schedule_id)
            else:
                await self.remove(event.schedule_id)
            return
        if not isinstance(event, RunFinished) or event.run_id is None:
            return
        try:
            run = await self._storage.runs.get(event.run_id)
            if run is not None and run.schedule_id is not None:
                await self._firer.settle(run.schedule_id, run.short_id)
        except ClubError:
            log.exception("scheduler.settle_failed", run_id=event.run_id)
