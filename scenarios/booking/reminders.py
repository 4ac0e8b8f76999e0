"""Reminders of upcoming bookings: «напоминать за 1 час», per user, off by default.

A booking run that finishes plans its reminder here (``BookRooms.on_done``, which the
runner calls before the run is saved done): one per request, due an
hour before it starts (``core.store.reminders`` keeps it). Bookings cancelled on the site
(``BookingsCancelled``, published by the cancelling step) leave the reminders; a reminder
left without rooms is never sent.

The scheduler calls ``send_due`` on its timer. Whether the user wants reminders is read
then, so turning them on covers the bookings already made. A reminder due after its
booking began (the bot was down) is skipped, not sent late. Sending follows the
replies' outbox (``core.replies``): claimed right before the message leaves, so it goes
out once across restarts and processes, and never twice.

Before they go, the due reminders are checked against the site (``LiveBookings``): one
read per account for the whole pass, none when nothing is to go. Rooms cancelled on the
site itself leave the reminder (``BookingsGoneFromSite``); one left without rooms is
``CANCELLED``. When the site cannot be read, the reminder goes unchecked: held back, it
could miss its hour, and a reminder of a booking that may be gone beats none.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Protocol
from zoneinfo import ZoneInfo

import structlog
from pydantic import BaseModel

from core.clock import Clock
from core.commands import as_lang
from core.errors import ClubError, StorageError, StorageUnavailable
from core.events import BaseEvent, EventBus
from core.output import OutputSink, Reply
from core.store import ScenarioRun, UserStore
from core.texts import day_label, tr
from scenarios.booking.events import BookingsCancelled, BookingsGoneFromSite
from scenarios.booking.records import ReminderRecord, ReminderRoom, ReminderState, ReminderStore
from scenarios.booking.texts import Remind

__all__ = [
    "LEAD",
    "BookedRequest",
    "LiveBookings",
    "ReminderRoom",
    "Reminders",
    "reminder_text",
]

log = structlog.get_logger("clubman.reminders")

LEAD = dt.timedelta(hours=1)  # «напоминать за 1 час»


class BookedRequest(BaseModel):
    """The rooms one request booked, at one place and time (wall clock, the run's zone)."""

    place: str
    day: dt.date
    start: dt.time
    end: dt.time
    rooms: list[ReminderRoom]


class LiveBookings(Protocol):
    """What the booking site holds now (the booking scenario reads it)."""

    async def live_numbers(self, user_ids: Sequence[int]) -> Mapping[int, frozenset[str]]:
        """The numbers of the live bookings on the site of each user's account, reading
        each account once. A user whose account could not be read is left out."""
        ...


def reminder_text(record: ReminderRecord, *, now: dt.datetime) -> str:
    lang = as_lang(record.lang)
    zone = ZoneInfo(record.timezone)
    start, end = record.starts_at.astimezone(zone), record.ends_at.astimezone(zone)
    span = f"{start:%H:%M}–{end:%H:%M}"
    if start.date() == now.astimezone(zone).date():
        when = tr(Remind.TODAY, lang, span=span)
    else:
        when = tr(Remind.ON_DAY, lang, day=day_label(start.date(), lang), span=span)
    rooms = ", ".join(room.room for room in record.rooms)
    return tr(Remind.UPCOMING, lang, when=when, place=record.place, rooms=rooms)


class _Receipt:
    def __init__(self, reminders: Reminders, run_id: str) -> None:
        self._reminders = reminders
        self._run_id = run_id

    async def attempting(self) -> bool:
        store = self._reminders.store
        try:
            taken = await store.mark(
                self._run_id, was=ReminderState.PENDING, now=ReminderState.ATTEMPTED
            )
        except StorageError:
            log.warning("reminder.postponed", run_id=self._run_id)  # the next round sends it
            taken = False
        if not taken:
            self._reminders.in_flight.discard(self._run_id)
        return taken

    async def sent(self, message_id: int | None) -> None:
        self._reminders.in_flight.discard(self._run_id)
        try:
            await self._reminders.store.mark(
                self._run_id,
                was=ReminderState.ATTEMPTED,
                now=ReminderState.SENT,
                message_id=message_id,
            )
        except StorageError:  # it did arrive; left ATTEMPTED it is not sent again either
            log.warning("reminder.sent_unrecorded", run_id=self._run_id)


class Reminders:
    def __init__(
        self,
        store: ReminderStore,
        users: UserStore,
        sink: OutputSink,
        *,
        clock: Clock,
        live: LiveBookings | None = None,
        bus: EventBus | None = None,
    ) -> None:
        """``live``: the site, to check the due reminders against (None: unchecked);
        ``bus``: where the bookings found gone are told."""
        self.store = store
        self._users = users
        self._sink = sink
        self._clock = clock
        self._live = live
        self._bus = bus
        self.in_flight: set[str] = set()  # handed to the view by this process

    async def on_event(self, event: BaseEvent) -> None:
        if not isinstance(event, BookingsCancelled) or not event.numbers:
            return
        try:
            await self.forget(set(event.numbers))
        except StorageUnavailable:
            raise  # the cancelling step waits for storage and is run again (idempotent)
        except StorageError:  # the bookings are gone on the site all the same
            log.exception("reminder.forget_failed", run_id=event.run_id)

    async def plan(self, run: ScenarioRun, made: BookedRequest) -> None:
        """The reminder of what ``run`` booked (once, however often it is planned)."""
        zone = ZoneInfo(run.timezone)
        starts = dt.datetime.combine(made.day, made.start, tzinfo=zone).astimezone(dt.UTC)
        ends = dt.datetime.combine(made.day, made.end, tzinfo=zone).astimezone(dt.UTC)
        due = starts - LEAD
        if due <= self._clock.now():  # booked within the hour: nothing to remind of
            return
        record = ReminderRecord(
            run_id=run.short_id, chat_id=run.chat_id, user_id=run.user_id, lang=run.lang,
            timezone=run.timezone, place=made.place, rooms=made.rooms,
            starts_at=starts, ends_at=ends, due_at=due,
        )  # fmt: skip
        if await self.store.plan(record):
            log.info("reminder.planned", run_id=run.short_id, due_at=due.isoformat())

    async def forget(self, numbers: set[str]) -> None:
        """Take the bookings ``numbers`` out of the pending reminders."""
        for record in await self.store.pending():
            kept = [room for room in record.rooms if room.number not in numbers]
            if len(kept) < len(record.rooms):
                await self._keep(record, kept, numbers)

    async def _keep(
        self, record: ReminderRecord, kept: Sequence[ReminderRoom], numbers: set[str]
    ) -> None:
        for _ in range(3):  # another cancel of the same request may change it meanwhile
            if await self.store.keep_rooms(record.run_id, was=record.rooms, rooms=kept):
                log.info("reminder.rooms_cancelled", run_id=record.run_id, left=len(kept))
                return
            reloaded = await self.store.get(record.run_id)
            if reloaded is None or reloaded.state is not ReminderState.PENDING:
                return
            record = reloaded
            kept = [room for room in record.rooms if room.number not in numbers]
        log.warning("reminder.rooms_kept", run_id=record.run_id)  # changed each time we wrote

    async def send_due(self, now: dt.datetime | None = None) -> int:
        """Hand every due reminder to the view; how many were handed over."""
        moment = now or self._clock.now()
        ready: list[ReminderRecord] = []
        for record in await self.store.due(moment):
            if record.run_id in self.in_flight:
                continue
            try:
                if await self._timely(record, moment):
                    ready.append(record)
            except Exception:  # one reminder's trouble must not stop the others
                log.exception("reminder.send_failed", run_id=record.run_id)
        live = await self._live_numbers(ready)
        handed = 0
        for record in ready:
            try:
                handed += await self._send(record, moment, live.get(record.user_id))
            except Exception:  # one reminder's trouble must not stop the others
                self.in_flight.discard(record.run_id)
                log.exception("reminder.send_failed", run_id=record.run_id)
        return handed

    async def _timely(self, record: ReminderRecord, now: dt.datetime) -> bool:
        """Before its booking starts and wanted by its user; else it is skipped."""
        if now < record.starts_at and await self._wanted(record.user_id):
            return True
        await self.store.mark(record.run_id, was=ReminderState.PENDING, now=ReminderState.SKIPPED)
        return False

    async def _live_numbers(
        self, records: Sequence[ReminderRecord]
    ) -> Mapping[int, frozenset[str]]:
        if self._live is None or not records:  # nothing to send: the site is not read
            return {}
        users = sorted({record.user_id for record in records})
        try:
            return await self._live.live_numbers(users)
        except ClubError:  # the site, the browser or the vault: sent unchecked
            log.warning("reminder.unchecked", users=users, exc_info=True)
            return {}

    async def _send(
        self, record: ReminderRecord, now: dt.datetime, live: frozenset[str] | None
    ) -> int:
        if live is not None:
            checked = await self._still_booked(record, live)
            if checked is None:
                return 0
            record = checked
        self.in_flight.add(record.run_id)
        text = reminder_text(record, now=now)
        reply = Reply(chat_id=record.chat_id, text=text, lang=as_lang(record.lang))
        await self._sink.deliver(reply, _Receipt(self, record.run_id))
        return 1

    async def _still_booked(
        self, record: ReminderRecord, live: frozenset[str]
    ) -> ReminderRecord | None:
        """The reminder with only the rooms the site still holds (the gone ones taken out
        of it as a cancel takes them); None when none is left or it is no longer pending."""
        gone = {room.number for room in record.rooms} - live
        if not gone:
            return record
        kept = [room for room in record.rooms if room.number not in gone]
        await self._keep(record, kept, gone)
        if self._bus is not None:
            await self._bus.publish(
                BookingsGoneFromSite(
                    chat_id=record.chat_id, run_id=record.run_id, numbers=sorted(gone)
                )
            )
        reloaded = await self.store.get(record.run_id)
        if reloaded is None or reloaded.state is not ReminderState.PENDING:
            return None
        left = [room for room in reloaded.rooms if room.number not in gone]
        return reloaded.model_copy(update={"rooms": left}) if left else None

    async def _wanted(self, user_id: int) -> bool:
        user = await self._users.get(user_id)
        return user is not None and user.reminders
