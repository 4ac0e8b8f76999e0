"""The club's events once made: list them, open an event's registration (with a limit),
count who registered, cancel one (asked first).

An event is named by its title or words of it; when that names none or several, the
user picks from the upcoming ones with buttons. A member lists, opens, counts and cancels
only the events their own requests made; an administrator, any of the club's
(``scenarios.events.owners``). An event named that is not theirs is refused plainly, not
answered with a choice of their own.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel
from rapidfuzz import fuzz

from core.commands import Lang
from core.errors import ScenarioError
from core.nlu import Decision, SlotParseError
from core.output import Option
from core.pause import QuestionSpec
from core.scenario import SlotContext, Step, StepContext, StepScenario
from core.store import RunStore
from core.texts import Common, day_label, tr
from scenarios.events.errors import EventNotFound
from scenarios.events.models import Event
from scenarios.events.owners import EventOwners
from scenarios.events.site import EventDesk
from scenarios.events.texts import EventTexts
from scenarios.events.vocabulary import (
    CANCEL_EVENT,
    COUNT_REGISTRATIONS,
    LIST_EVENTS,
    MAX_LIMIT,
    OPEN_REGISTRATION,
)

__all__ = ["CancelEvent", "CountRegistrations", "EventRef", "ListEvents", "OpenRegistration"]

_CLOSE_ENOUGH = 70  # rapidfuzz partial ratio of a named event to a title
_OPTIONS = 8


class EventRef(BaseModel):
    event: str | None = None  # the title, or words of it
    limit: int | None = None  # open_registration: how many may register


class Chosen(BaseModel):
    event: Event


class Listed(BaseModel):
    events: list[Event]


class Counted(BaseModel):
    count: int


class Confirmation(BaseModel):
    confirmed: bool


class Done(BaseModel):
    done: bool


def when(event: Event, lang: Lang) -> str:
    day = day_label(event.day, lang)
    return f"{day} {event.start:%H:%M}–{event.end:%H:%M}"


def matching(events: Sequence[Event], named: str | None) -> list[Event]:
    """The events ``named`` names: the one titled so, else those whose title holds it."""
    if not named:
        return []
    wanted = named.casefold().strip()
    exact = [e for e in events if e.title.casefold().strip() == wanted]
    if exact:
        return exact
    return [e for e in events if fuzz.partial_ratio(wanted, e.title.casefold()) >= _CLOSE_ENOUGH]


class _EventScenario(StepScenario[EventRef]):
    slot_model = EventRef

    def __init__(self, *, desk: EventDesk, runs: RunStore) -> None:
        self._desk = desk
        self._owners = EventOwners(runs=runs)

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        found = super().initial_slots(decision)
        return {key: value for key, value in found.items() if key in EventRef.model_fields}

    async def _choose(self, ctx: StepContext[Any]) -> Chosen:
        system = await self._desk.system(ctx)
        sorted_ = await self._owners.sort(ctx.actor, await system.upcoming_events())
        allowed = sorted_.theirs
        picked = ctx.answer("which")
        chosen = next((e for e in allowed if e.id == picked), None)
        name = ctx.slots.event
        mine = chosen is not None or bool(matching(allowed, name))
        if name and not mine and matching(sorted_.not_theirs, name):
            # Another's event named: said so, not «which one?» with the user's own.
            foreign = matching(sorted_.foreign, name)
            refusal = EventTexts.NOT_CLUBS if ctx.actor.admin and foreign else EventTexts.NOT_YOURS
            raise ScenarioError(ctx.tr(refusal))
        if not allowed:
            raise ScenarioError(ctx.tr(EventTexts.NOT_FOUND))
        if chosen is None and not ctx.slots.event and len(allowed) == 1:
            chosen = allowed[0]  # the only one there is
        if chosen is None:
            named = matching(allowed, ctx.slots.event)
            if len(named) == 1:
                chosen = named[0]
            else:
                offered = named or allowed
                ctx.ask(
                    "which",
                    ctx.tr(EventTexts.ASK_EVENT),
                    [
                        Option(id=e.id, label=f"{e.title[:40]}, {when(e, ctx.lang)}")
                        for e in offered[:_OPTIONS]
                    ],
                    allow_free_text=False,
                )
        return Chosen(event=chosen)

    async def release(self, run_id: str) -> None:
        await self._desk.release(run_id)


class ListEvents(_EventScenario):
    name = LIST_EVENTS
    intents: ClassVar[frozenset[str]] = frozenset({LIST_EVENTS})
    descriptions: ClassVar[Mapping[str, str]] = {LIST_EVENTS: "show the club's upcoming events"}
    title_text = EventTexts.LIST_TITLE

    def steps(self) -> Sequence[Step]:
        return [Step("read", EventTexts.STEP_READ, self._read)]

    async def _read(self, ctx: StepContext[Any]) -> Listed:
        system = await self._desk.system(ctx)
        sorted_ = await self._owners.sort(ctx.actor, await system.upcoming_events())
        return Listed(events=sorted_.theirs)

    def summary(self, ctx: StepContext[Any]) -> str:
        events = ctx.result("read", Listed).events
        if not events:
            return ctx.tr(EventTexts.NONE if ctx.actor.admin else EventTexts.NONE_YOURS)
        lines = []
        for event in events:
            where = f", {event.room}" if event.room else ""
            lines.append(f"• {when(event, ctx.lang)} — «{event.title}»{where}\n  {event.url}")
        return ctx.tr(EventTexts.HEAD) + "\n" + "\n".join(lines)


class OpenRegistration(_EventScenario):
    name = OPEN_REGISTRATION
    intents: ClassVar[frozenset[str]] = frozenset({OPEN_REGISTRATION})
    descriptions: ClassVar[Mapping[str, str]] = {
        OPEN_REGISTRATION: "open registration for one of the club's events, maybe with a limit"
    }
    acting: ClassVar[frozenset[str]] = frozenset({OPEN_REGISTRATION})
    title_text = EventTexts.REGISTRATION_TITLE

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        limit = slots.get("limit")
        if limit is not None and not 1 <= int(limit) <= MAX_LIMIT:
            return "limit", tr(EventTexts.BAD_LIMIT, ctx.lang)
        return None

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        return QuestionSpec(key=slot, text=tr(EventTexts.ASK_LIMIT, ctx.lang))

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        digits = re.sub(r"\D", "", text or option_id or "")
        if not digits:
            raise SlotParseError(tr(EventTexts.BAD_LIMIT, ctx.lang))
        return int(digits)

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", EventTexts.STEP_CHOOSE, self._choose),
            Step("open", EventTexts.STEP_OPEN, self._open),
        ]

    async def _open(self, ctx: StepContext[Any]) -> Done:
        system = await self._desk.system(ctx)
        await system.open_registration(ctx.result("choose", Chosen).event.id, ctx.slots.limit)
        return Done(done=True)

    def summary(self, ctx: StepContext[Any]) -> str:
        event = ctx.result("choose", Chosen).event
        limit = ctx.slots.limit
        said = ctx.tr(EventTexts.LIMIT, limit=limit) if limit is not None else ""
        return ctx.tr(EventTexts.OPENED, title=event.title, limit=said, url=event.url)


class CountRegistrations(_EventScenario):
    name = COUNT_REGISTRATIONS
    intents: ClassVar[frozenset[str]] = frozenset({COUNT_REGISTRATIONS})
    descriptions: ClassVar[Mapping[str, str]] = {
        COUNT_REGISTRATIONS: "how many people registered for one of the club's events"
    }
    title_text = EventTexts.COUNT_TITLE

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", EventTexts.STEP_CHOOSE, self._choose),
            Step("count", EventTexts.STEP_COUNT, self._count),
        ]

    async def _count(self, ctx: StepContext[Any]) -> Counted:
        system = await self._desk.system(ctx)
        return Counted(count=await system.registrations(ctx.result("choose", Chosen).event.id))

    def summary(self, ctx: StepContext[Any]) -> str:
        event = ctx.result("choose", Chosen).event
        count = ctx.result("count", Counted).count
        return ctx.tr(EventTexts.COUNTED, title=event.title, count=count)


class CancelEvent(_EventScenario):
    name = CANCEL_EVENT
    intents: ClassVar[frozenset[str]] = frozenset({CANCEL_EVENT})
    descriptions: ClassVar[Mapping[str, str]] = {
        CANCEL_EVENT: "cancel (delete) one of the club's events, freeing its room"
    }
    title_text = EventTexts.CANCEL_TITLE

    def steps(self) -> Sequence[Step]:
        return [
            Step("choose", EventTexts.STEP_CHOOSE, self._choose),
            Step("confirm", Common.CONFIRMATION, self._confirm),
            Step("cancel", EventTexts.STEP_CANCEL, self._cancel),
        ]

    async def _confirm(self, ctx: StepContext[Any]) -> Confirmation:
        event = ctx.result("choose", Chosen).event
        text = ctx.tr(EventTexts.CONFIRM, title=event.title, when=when(event, ctx.lang))
        return Confirmation(confirmed=ctx.confirm("confirm", text))

    async def _cancel(self, ctx: StepContext[Any]) -> Done:
        if not ctx.result("confirm", Confirmation).confirmed:
            return Done(done=False)
        system = await self._desk.system(ctx)
        with contextlib.suppress(EventNotFound):  # a resumed run deleted it already
            await system.delete_event(ctx.result("choose", Chosen).event.id)
        return Done(done=True)

    def summary(self, ctx: StepContext[Any]) -> str:
        title = ctx.result("choose", Chosen).event.title
        done = ctx.result("cancel", Done).done
        return ctx.tr(EventTexts.CANCELLED if done else EventTexts.KEPT, title=title)
