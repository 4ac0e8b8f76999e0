"""Recurring bookings from the chat: ``schedule_booking`` (create after a confirmation),
``list_schedules`` (pause, resume, delete by buttons) and ``cancel_schedule``. The schedule
store is injected as the small protocol below; the scheduler hears of every change from
the store (``ScheduleChanged`` events), not from these scenarios."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel

from core.commands import Lang
from core.errors import ScenarioError
from core.nlu import DATE_OPTIONS, WEEKDAYS, Decision, date_question
from core.output import Option
from core.pause import QuestionSpec
from core.scenario import Shortcut, SlotContext, Step, StepContext, StepScenario
from core.site.catalogue import Catalogues
from core.texts import Common, tr
from scenarios.booking.guess import BookingGuessing
from scenarios.booking.schedules.actions import action_options, list_lines, parse_action
from scenarios.booking.schedules.entry import (
    ScheduleEntry,
    ScheduleState,
    entry_label,
    weekdays_label,
)
from scenarios.booking.schedules.slots import ScheduleSlots, WeekdaySlots, booking_slots
from scenarios.booking.schedules.texts import Schedules
from scenarios.booking.texts import BookingGuide
from scenarios.booking.vocabulary import BookingIntent
from scenarios.booking.vocabulary.words import BookingWords

__all__ = [
    "CancelSchedule",
    "ListSchedules",
    "ScheduleBooking",
    "ScheduleStore",
]


class ScheduleStore(Protocol):
    async def create(
        self,
        *,
        owner_id: int,
        chat_id: int,
        weekdays: list[str],
        slots: dict[str, Any],
        timezone: str,
    ) -> ScheduleEntry: ...
    async def of_owner(self, owner_id: int) -> list[ScheduleEntry]: ...
    async def set_status(self, schedule_id: str, status: ScheduleState) -> ScheduleEntry | None: ...
    async def set_weekdays(self, schedule_id: str, weekdays: list[str]) -> ScheduleEntry | None: ...


class Confirmed(BaseModel):
    create: bool  # yes: create (or, stopping, stop)


class Created(BaseModel):
    created: bool
    id: str = ""
    label: str = ""


class Loaded(BaseModel):
    ids: list[str]


class Lines(BaseModel):
    lines: list[str]


class Picked(BaseModel):
    id: str
    label: str
    left: list[str]  # weekdays the schedule keeps; none: it is deleted


class Stopped(BaseModel):
    deleted: bool
    label: str
    kept: bool = False  # the user said no


class _Base(BookingWords, StepScenario[Any]):
    def __init__(self, *, store: ScheduleStore, catalogues: Catalogues) -> None:
        self._store = store
        self._catalogues = catalogues


class ScheduleBooking(_Base):
    """Slots are asked and checked as ``booking`` (the ``book_rooms`` scenario) does."""

    name = "schedule_booking"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.SCHEDULE_BOOKING})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.SCHEDULE_BOOKING: "book every week (recurring)"
    }
    acting: ClassVar[frozenset[str]] = frozenset({BookingIntent.SCHEDULE_BOOKING})
    slot_model = ScheduleSlots
    guessable = ("recurrence", "start", "end")
    guessing = BookingGuessing()

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(BookingGuide.SCHEDULE, lang)]

    title_text = Schedules.CREATE_TITLE

    def __init__(
        self,
        *,
        store: ScheduleStore,
        catalogues: Catalogues,
        booking: StepScenario[Any],
    ) -> None:
        super().__init__(store=store, catalogues=catalogues)
        self._booking = booking

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        slots = super().initial_slots(decision)
        day = slots.pop("date", None)
        if "recurrence" not in slots and day is not None:  # «по четвергам, начиная с 26.11»
            weekday = WEEKDAYS[dt.date.fromisoformat(day).weekday()]
            slots["recurrence"] = {"freq": "weekly", "weekdays": [weekday]}
        disputed = slots.get(DATE_OPTIONS)
        days = (slots.get("recurrence") or {}).get("weekdays", [])
        if disputed and len(days) <= 1:
            # «каждую неделю в среду 1 декабря» (a Tuesday): the weekday is asked, the two
            # days offered; a recurrence of several weekdays is kept as said.
            slots.pop("recurrence", None)
        return slots

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [n for n in ("recurrence", "start", "end", "building") if n not in slots]

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        booking = {k: v for k, v in slots.items() if k != "recurrence"}
        return self._booking.check_slots(booking, ctx)

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        if slot != "recurrence":  # times and building: asked as for any booking
            return await self._booking.slot_question(slot, ctx)
        if ctx.slots.get(DATE_OPTIONS):  # the first day said two ways: its weekday is asked
            today = ctx.now.astimezone(ctx.tz).date()
            return date_question(ctx.slots, today=today, lang=ctx.lang, key=slot)
        question = await super().slot_question(slot, ctx)
        question.options = [
            Option(id=day, label=tr(name, ctx.lang))
            for day, name in zip(WEEKDAYS, Schedules.DAY_BUTTONS, strict=True)
        ]
        return question

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        if slot != "recurrence":
            return self._booking.parse_answer(slot, option_id=option_id, text=text, ctx=ctx)
        if option_id in WEEKDAYS:
            return {"freq": "weekly", "weekdays": [option_id]}
        if option_id is not None and ctx.slots.get(DATE_OPTIONS):  # a day tapped: its weekday
            weekday = WEEKDAYS[dt.date.fromisoformat(option_id).weekday()]
            return {"freq": "weekly", "weekdays": [weekday]}
        return super().parse_answer(slot, option_id=option_id, text=text, ctx=ctx)

    def steps(self) -> Sequence[Step]:
        return [
            Step("confirm", Common.CONFIRMATION, self._confirm),
            Step("create", Schedules.STEP_CREATE, self._create),
        ]

    def _label(self, ctx: StepContext[Any]) -> str:
        return entry_label(
            ctx.slots.weekdays(), booking_slots(ctx.slots), ctx.lang, self._catalogues.current
        )

    async def _confirm(self, ctx: StepContext[Any]) -> Confirmed:
        days = self._catalogues.current.horizon_for(ctx.slots.building, ctx.slots.room or ())
        create = ctx.confirm(
            "confirm",
            ctx.tr(Schedules.CONFIRM_CREATE, what=self._label(ctx), days=days),
            yes=Option(id="create", label=ctx.tr(Schedules.CREATE)),
            no=Option(id="cancel", label=ctx.tr(Common.CANCEL)),
        )
        return Confirmed(create=create)

    async def _create(self, ctx: StepContext[Any]) -> Created:
        if not ctx.result("confirm", Confirmed).create:
            return Created(created=False)
        weekdays, booking = ctx.slots.weekdays(), booking_slots(ctx.slots)
        # A repeated step (after a restart) or the same request twice: one schedule.
        same = [
            e
            for e in await self._store.of_owner(ctx.user_id)
            if e.weekdays == weekdays and e.slots == booking
        ]
        if same:
            entry = same[0]
            if entry.status == "paused":
                entry = await self._store.set_status(entry.id, "active") or entry
        else:
            entry = await self._store.create(
                owner_id=ctx.user_id,
                chat_id=ctx.chat_id,
                weekdays=weekdays,
                slots=booking,
                timezone=ctx.tz.key,
            )
        return Created(created=True, id=entry.id, label=self._label(ctx))

    def summary(self, ctx: StepContext[Any]) -> str:
        made = ctx.result("create", Created)
        if not made.created:
            return ctx.tr(Schedules.NOT_CREATED)
        return ctx.tr(Schedules.CREATED, label=made.label)


class ListSchedules(_Base):
    """The list as a question whose options are the actions; a tap applies one and the
    updated list is asked again (``act1``, ``act2``…) until «Готово» or another text."""

    name = "list_schedules"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.LIST_SCHEDULES})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.LIST_SCHEDULES: "show recurring bookings"
    }
    shortcuts = (Shortcut("schedules", BookingIntent.LIST_SCHEDULES, Schedules.MENU),)
    slot_model = WeekdaySlots

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(BookingGuide.SCHEDULES, lang)]

    title_text = Schedules.LIST_TITLE

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        return {}

    def steps(self) -> Sequence[Step]:
        return [
            Step("load", Schedules.STEP_LOAD, self._load),
            Step("act", Schedules.STEP_ACT, self._act),
        ]

    async def _load(self, ctx: StepContext[Any]) -> Loaded:
        return Loaded(ids=[e.id for e in await self._store.of_owner(ctx.user_id)])

    async def _apply(self, action: str, ids: list[str]) -> bool:
        parsed = parse_action(action, ids)
        if parsed is None:
            return False
        schedule_id, state = parsed
        await self._store.set_status(schedule_id, state)
        return True

    async def _act(self, ctx: StepContext[Any]) -> Lines:
        ids = ctx.result("load", Loaded).ids
        catalogue = self._catalogues.current
        keys = sorted((k for k in ctx.answers if k.startswith("act")), key=lambda k: int(k[3:]))
        # Earlier taps were applied when this step ran after them; only the newest is new.
        finished = bool(keys) and not await self._apply(ctx.answers[keys[-1]], ids)
        current = {e.id: e for e in await self._store.of_owner(ctx.user_id)}
        entries = [current[i] for i in ids if i in current]
        lines = list_lines(entries, ctx.lang, catalogue)
        if entries and not finished:  # «Готово» or a typed text ends it
            head = ctx.tr(Schedules.HEAD)
            ctx.ask(
                f"act{len(keys) + 1}",
                head + "\n" + "\n".join(f"• {line}" for line in lines),
                action_options(entries, ids, ctx.lang, catalogue),
                allow_free_text=False,
            )
        return Lines(lines=lines)

    def summary(self, ctx: StepContext[Any]) -> str:
        lines = ctx.result("act", Lines).lines
        if not lines:
            return ctx.tr(Schedules.NONE)
        head = ctx.tr(Schedules.HEAD)
        return head + "\n" + "\n".join(f"• {line}" for line in lines)


class CancelSchedule(_Base):
    """«отключи автобронь по средам»: a Wednesday is taken out of a schedule (the schedule
    is deleted when no weekday is left); with several matches the user picks one."""

    name = "cancel_schedule"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.CANCEL_SCHEDULE})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.CANCEL_SCHEDULE: "stop a recurring booking; also a negated one: \"don't book "
        '301 on Tuesdays anymore"'
    }
    slot_model = WeekdaySlots
    title_text = Schedules.STOP_TITLE

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        found = super().initial_slots(decision).items()
        return {k: v for k, v in found if k in ("recurrence", "room")}

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", Schedules.STEP_CHOOSE, self._choose),
            Step("confirm", Schedules.STEP_CONFIRM_STOP, self._confirm_stop),
            Step("apply", Schedules.STEP_STOP, self._stop),
        ]

    async def _confirm_stop(self, ctx: StepContext[Any]) -> Confirmed:
        """Always asked: a schedule is undone only by a yes («больше не занимай…» may be
        read wrong, and the schedule would stop booking in silence)."""
        chosen = ctx.result("choose", Picked)
        days = weekdays_label([d for d in ctx.slots.weekdays() if d not in chosen.left], ctx.lang)
        text = (
            ctx.tr(Schedules.CONFIRM_STOP_ON, label=chosen.label, days=days)
            if chosen.left
            else ctx.tr(Schedules.CONFIRM_DELETE, label=chosen.label)
        )
        return Confirmed(create=ctx.confirm("confirm", text))

    async def _choose(self, ctx: StepContext[Any]) -> Picked:
        days: list[str] = ctx.slots.weekdays()
        catalogue = self._catalogues.current
        found = [
            e
            for e in await self._store.of_owner(ctx.user_id)
            if not days or set(days) & set(e.weekdays)
        ]
        rooms = set(ctx.slots.room or ())
        if with_rooms := [e for e in found if rooms & set(e.slots.get("room") or ())]:
            found = with_rooms  # a room named narrows the choice; none matching leaves it
        if not found:
            raise ScenarioError(
                ctx.tr(Schedules.NOT_FOUND_ON, days=weekdays_label(days, ctx.lang))
                if days
                else ctx.tr(Schedules.NOT_FOUND)
            )
        picked = ctx.answer("which")  # the tail of an id: unique within one user's list
        match = [e for e in found if len(found) == 1 or e.id[-8:] == picked]
        if not match:
            ctx.ask(
                "which",
                ctx.tr(Schedules.WHICH),
                [Option(id=e.id[-8:], label=e.label(ctx.lang, catalogue)) for e in found[:10]],
                allow_free_text=False,
            )
        chosen = match[0]
        left = [d for d in chosen.weekdays if d not in days] if days else []
        return Picked(id=chosen.id, label=chosen.label(ctx.lang, catalogue), left=left)

    async def _stop(self, ctx: StepContext[Any]) -> Stopped:
        chosen = ctx.result("choose", Picked)
        if not ctx.result("confirm", Confirmed).create:
            return Stopped(deleted=False, label=chosen.label, kept=True)
        if chosen.left:
            entry = await self._store.set_weekdays(chosen.id, chosen.left)
            label = entry.label(ctx.lang, self._catalogues.current) if entry else chosen.label
            return Stopped(deleted=False, label=label)
        await self._store.set_status(chosen.id, "deleted")
        return Stopped(deleted=True, label=chosen.label)

    def summary(self, ctx: StepContext[Any]) -> str:
        done = ctx.result("apply", Stopped)
        if done.kept:
            return ctx.tr(Schedules.NOT_STOPPED)
        if done.deleted:
            return ctx.tr(Schedules.DELETED, label=done.label)
        days = weekdays_label(ctx.slots.weekdays(), ctx.lang)
        return ctx.tr(Schedules.STOPPED_ON, days=days, label=done.label)
