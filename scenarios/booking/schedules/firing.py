"""Firing one schedule's due dates, exactly once, and settling each firing's status.

1. ``due_dates`` — dates whose window has opened and that are not past;
2. ``may_fire`` — the history has no pending/running/done firing for the date;
3. a Redis claim ``schedule:{id}:{date}`` (``…:{n}`` for the n-th attempt) — one process
   of many goes on;
4. the firing is recorded (``pending``) in the history, checked again on the fresh copy;
5. ``manager.control.start_scenario("book_rooms", …, schedule_id=…)``; the firing gets the run id,
   then the run's status (``RunFinished`` events and the next tick settle it later).
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import structlog

from core.commands import as_lang
from core.dispatcher import ChatDispatcher
from core.errors import ClubError
from core.site.catalogue import Catalogues
from core.texts import day_label, tr
from scenarios.booking.records import BookingStore, Schedule, ScheduleFiring, ScheduleStatus
from scenarios.booking.schedules.entry import what_label
from scenarios.booking.schedules.history import FiringStatus, firing_status, firings_for, may_fire
from scenarios.booking.schedules.lead import lead_for
from scenarios.booking.schedules.texts import Schedules
from scenarios.booking.schedules.times import due_dates
from scenarios.booking.settings import SchedulerSettings

__all__ = ["ScheduleFirer"]

log = structlog.get_logger("clubman.scheduler")


class ScheduleFirer:
    def __init__(
        self,
        *,
        storage: BookingStore,
        manager: ChatDispatcher,
        settings: SchedulerSettings,
        catalogues: Catalogues,
        owner_id: str,
    ) -> None:
        self._storage = storage
        self._manager = manager
        self._settings = settings
        self._catalogues = catalogues
        self._owner = owner_id

    async def fire_schedule(self, schedule: Schedule, now: dt.datetime) -> list[str]:
        """Fire ``schedule``'s due dates; returns the ids of the runs started."""
        if schedule.status is not ScheduleStatus.ACTIVE:
            return []
        tz = ZoneInfo(schedule.timezone)
        start = schedule.slots.get("start")
        targets = due_dates(
            schedule.weekdays,
            tz=tz,
            now=now,
            lead_days=lead_for(self._settings, self._catalogues.current, schedule.slots),
            at=self._settings.fire_at,
            start=dt.time.fromisoformat(start) if start else None,
            since=schedule.created_at.astimezone(tz).date(),
        )
        started: list[str] = []
        for target in targets:
            if not self._may_fire(schedule, target, now):
                continue
            # A retry is claimed anew: the n-th attempt at a date has its own key.
            attempt = len(firings_for(schedule, target)) + 1
            key = f"schedule:{schedule.id}:{target.isoformat()}"
            key += f":{attempt}" if attempt > 1 else ""
            ttl = self._settings.claim_ttl_seconds
            if not await self._storage.claims.claim(key, owner=self._owner, ttl_seconds=ttl):
                continue
            run_id = await self._fire_one(str(schedule.id), target, now)
            if run_id is not None:
                started.append(run_id)
        return started

    def _may_fire(self, schedule: Schedule, target: dt.date, now: dt.datetime) -> bool:
        return may_fire(
            schedule,
            target,
            now=now,
            max_attempts=self._settings.max_attempts,
            retry=dt.timedelta(seconds=self._settings.retry_seconds),
        )

    async def _fire_one(self, schedule_id: str, target: dt.date, now: dt.datetime) -> str | None:
        firing = ScheduleFiring(target_date=target, status=FiringStatus.PENDING.value, at=now)

        def record(schedule: Schedule) -> bool:
            if schedule.status is not ScheduleStatus.ACTIVE:
                return False
            if not self._may_fire(schedule, target, now):
                return False
            schedule.history.append(firing)
            return True

        schedule = await self._storage.schedules.update(schedule_id, record)
        if schedule is None or not any(f is firing for f in schedule.history):
            return None  # someone fired it, or it was paused, meanwhile
        user = await self._storage.users.get(schedule.owner_id)
        lang = as_lang(user.language if user else None)
        slots: dict[str, Any] = {**schedule.slots, "date": target.isoformat()}
        what = what_label(schedule.slots, lang, self._catalogues.current)
        note = tr(Schedules.FIRING, lang, day=day_label(target, lang), what=what)
        log.info("scheduler.firing", schedule_id=schedule_id, target=target.isoformat())
        try:
            run_id = await self._manager.control.start_scenario(
                chat_id=schedule.chat_id,
                user_id=schedule.owner_id,
                scenario="book_rooms",
                slots=slots,
                lang=lang,
                schedule_id=schedule_id,
                note=note,
            )
        except ClubError:
            log.exception("scheduler.start_failed", schedule_id=schedule_id)
            await self._set(schedule_id, target, None, FiringStatus.FAILED)
            return None
        await self._set(schedule_id, target, run_id, FiringStatus.PENDING)  # the run id first
        await self.settle(schedule_id, run_id)
        return run_id

    # --- settling firings ---------------------------------------------------------------

    async def _set(
        self, schedule_id: str, target: dt.date, run_id: str | None, status: FiringStatus
    ) -> None:
        """Give the date's open firing a run id and a status."""

        def change(schedule: Schedule) -> bool:
            for firing in schedule.history:
                if firing.target_date == target and firing.status == FiringStatus.PENDING.value:
                    firing.run_id = run_id
                    firing.status = status.value
                    return True
            return False

        await self._storage.schedules.update(schedule_id, change)

    async def settle(self, schedule_id: str, run_id: str) -> None:
        """Copy the run's status to its firing; a finished firing never goes back."""
        run = await self._storage.runs.get(run_id)
        status = firing_status(run.status) if run is not None else FiringStatus.LOST

        def change(schedule: Schedule) -> bool:
            for firing in schedule.history:
                if firing.run_id != run_id or firing.status == status.value:
                    continue
                if FiringStatus(firing.status).finished and not status.finished:
                    return False
                firing.status = status.value
                return True
            return False

        changed: list[bool] = []

        def change_and_note(schedule: Schedule) -> bool:
            changed.append(change(schedule))
            return changed[-1]

        await self._storage.schedules.update(schedule_id, change_and_note)
        if changed and changed[-1]:
            log.info("scheduler.settled", schedule_id=schedule_id, run_id=run_id, status=status)

    async def reconcile(self, now: dt.datetime) -> None:
        """Settle firings whose end was not heard of (events of a process that died)."""
        stale = dt.timedelta(seconds=self._settings.claim_ttl_seconds)
        for schedule in await self._storage.schedules.live():
            schedule_id = str(schedule.id)
            for firing in schedule.history:
                status = FiringStatus(firing.status)
                if status.finished:
                    continue
                if firing.run_id is not None:
                    await self.settle(schedule_id, firing.run_id)
                elif now - firing.at > stale:
                    await self._adopt_or_lose(schedule, firing.target_date)

    async def _adopt_or_lose(self, schedule: Schedule, target: dt.date) -> None:
        """A firing left pending: its process stopped after starting the run (adopt the
        run) or before (lost: it will be tried again)."""
        schedule_id = str(schedule.id)
        recent = await self._storage.runs.recent_for_chat(schedule.chat_id, limit=50)
        run = next(
            (
                r
                for r in recent
                if r.schedule_id == schedule_id and r.slots.get("date") == target.isoformat()
            ),
            None,
        )
        if run is None:
            await self._set(schedule_id, target, None, FiringStatus.LOST)
            return
        await self._set(schedule_id, target, run.short_id, FiringStatus.PENDING)
        await self.settle(schedule_id, run.short_id)
