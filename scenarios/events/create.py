"""``create_event``: an event in the club's category at a time, with a room booked for
it through the event, and its link in the answer.

The run's mark goes into the event's description; the port looks for it before it
creates, so a resumed or repeated step never makes a second event or booking. A taken
room is asked again, with the rooms that are free then when the site can tell.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NoReturn, Protocol

from pydantic import BaseModel

from core.commands import Lang
from core.errors import ScenarioError
from core.nlu import DATE_OPTIONS, Decision, SlotParseError
from core.output import Option
from core.pause import QuestionSpec
from core.scenario import SlotContext, Step, StepContext, StepScenario, Utterance
from core.site.catalogue import Catalogues
from core.site.models import Catalogue, Room
from core.texts import day_label, tr
from scenarios.events.errors import EventLeftBehind, RoomNotBooked, RoomTaken
from scenarios.events.models import Event, mark_of
from scenarios.events.site import EventDesk
from scenarios.events.texts import EventTexts
from scenarios.events.titles import title_problem
from scenarios.events.vocabulary import CREATE_EVENT, read

__all__ = ["NO_ROOM", "CreateEvent", "EventSlots", "FreeRooms", "find_room", "rooms_named"]

NO_ROOM = "none"
_ROOM_OPTIONS = 4
_QUOTES = {"«": "»", "“": "”", '"': '"', "'": "'"}


class EventSlots(BaseModel):
    title: str | None = None
    date: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    room_name: str | None = None  # «7-703» as written, or ``NO_ROOM``


class Created(BaseModel):
    event: Event
    room: str | None = None  # the room booked for it, as the summary names it


class FreeRooms(Protocol):
    """Rooms free for the whole of a time, nearest to ``room`` first (the booking job's
    availability, when the site books rooms)."""

    async def near(
        self, ctx: StepContext[Any], room: Room, day: dt.date, start: dt.time, end: dt.time
    ) -> list[Room]: ...

    async def release(self, run_id: str) -> None:
        """Close what ``near`` opened for the run."""
        ...


def rooms_named(name: str, catalogue: Catalogue) -> list[Room]:
    """The rooms «7-703» (building and number), «703» or the site's own name names."""
    wanted = name.strip().lower().replace(" ", "")
    building, _, number = wanted.rpartition("-") if "-" in wanted else ("", "", wanted)
    if "/" in building:  # Indico names a room «7/7-703»
        building = building.split("/")[0]
    return [
        room
        for room in catalogue.rooms
        if room.number.lower() == number and (not building or room.building.lower() == building)
    ]


def find_room(name: str, catalogue: Catalogue) -> Room | None:
    """The one room ``name`` names, if it names exactly one."""
    found = rooms_named(name, catalogue)
    return found[0] if len(found) == 1 else None


def _unquoted(text: str) -> str:
    """An answer's title: what stands inside one pair of quotes around it, if it has them
    (the command's title is read from inside its quotes too)."""
    said = text.strip()
    if len(said) >= 2 and _QUOTES.get(said[0]) == said[-1]:
        return said[1:-1].strip()
    return said


def room_label(room: Room) -> str:
    return f"{room.building}-{room.number}"


class CreateEvent(StepScenario[EventSlots]):
    name = CREATE_EVENT
    intents: ClassVar[frozenset[str]] = frozenset({CREATE_EVENT})
    descriptions: ClassVar[Mapping[str, str]] = {
        CREATE_EVENT: "organise an event of the club (a lecture, a meeting) at a time, "
        "usually in a room"
    }
    acting: ClassVar[frozenset[str]] = frozenset({CREATE_EVENT})
    slot_model = EventSlots
    title_text = EventTexts.CREATE_TITLE

    def __init__(
        self, *, desk: EventDesk, catalogues: Catalogues, free_rooms: FreeRooms | None = None
    ) -> None:
        self._desk = desk
        self._catalogues = catalogues
        self._free_rooms = free_rooms

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        """Any events command (the planner hands each intent to its scenario): the words
        are read once a message, not once per events scenario."""
        return read(said, said.now.astimezone(said.tz).date())

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(example, lang) for example in EventTexts.EXAMPLES]

    # --- slots -----------------------------------------------------------------------

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        found = super().initial_slots(decision)
        kept = (*EventSlots.model_fields, DATE_OPTIONS)  # a disputed date: both offered
        return {key: value for key, value in found.items() if key in kept}

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        wanted = ("title", "date", "start", "end", "room_name")
        return [name for name in wanted if name not in slots]

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        if slot == "title":
            return QuestionSpec(key=slot, text=tr(EventTexts.ASK_TITLE, ctx.lang))
        if slot == "room_name":
            return QuestionSpec(
                key=slot,
                text=tr(EventTexts.ASK_ROOM, ctx.lang),
                options=[Option(id=NO_ROOM, label=tr(EventTexts.NO_ROOM, ctx.lang))],
            )
        return await super().slot_question(slot, ctx)

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        if slot == "title":
            title = _unquoted(text or "")
            problem = title_problem(title, ctx.lang)
            if problem is not None:
                raise SlotParseError(problem)
            return title
        if slot == "room_name":
            if option_id is not None:
                return option_id
            return (text or "").strip()
        return super().parse_answer(slot, option_id=option_id, text=text, ctx=ctx)

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        model = EventSlots.model_validate(slots)
        # The command's title (or an LLM's reading of it) is checked as a typed one is.
        problem = title_problem(model.title, ctx.lang) if model.title is not None else None
        if problem is not None:
            return "title", problem
        today = ctx.now.astimezone(ctx.tz).date()
        if model.date is not None and model.date < today:
            return "date", tr(EventTexts.PAST, ctx.lang)
        if model.start is not None and model.end is not None and model.end <= model.start:
            return "end", tr(EventTexts.END_BEFORE_START, ctx.lang)
        name = model.room_name
        if not name or name == NO_ROOM:
            return None
        named = rooms_named(name, self._catalogues.current)
        if len(named) > 1:  # «201» in two buildings: which one is asked, not denied
            rooms = ", ".join(room_label(room) for room in named[:_ROOM_OPTIONS])
            return "room_name", tr(EventTexts.SEVERAL_ROOMS, ctx.lang, room=name, rooms=rooms)
        if not named:
            return "room_name", tr(EventTexts.UNKNOWN_ROOM, ctx.lang, room=name)
        return None

    # --- steps ------------------------------------------------------------------------

    def steps(self) -> Sequence[Step]:
        return [
            Step("login", EventTexts.STEP_LOGIN, self._login),
            Step("create", EventTexts.STEP_CREATE, self._create),
        ]

    async def _login(self, ctx: StepContext[Any]) -> None:
        await self._desk.system(ctx)

    async def _create(self, ctx: StepContext[Any]) -> Created:
        slots: EventSlots = ctx.slots
        if slots.title is None or slots.date is None or slots.start is None or slots.end is None:
            raise ScenarioError("an event without its title or time reached the create step")
        problem = title_problem(slots.title, ctx.lang)  # a run saved before the check
        if problem is not None:
            raise ScenarioError(problem)
        room = self._room(ctx)
        system = await self._desk.system(ctx)
        try:
            event = await system.create_event(
                title=slots.title,
                day=slots.date,
                start=slots.start,
                end=slots.end,
                room_id=room.id if room is not None else None,
                mark=mark_of(ctx.run_id),
            )
        except RoomTaken:
            assert room is not None  # only a room can be taken
            await self._ask_another_room(ctx, room)
        except RoomNotBooked as failed:
            assert room is not None  # only a room can fail to be booked
            raise ScenarioError(self._not_booked(ctx, failed, room)) from failed
        return Created(event=event, room=room_label(room) if room is not None else None)

    def _not_booked(self, ctx: StepContext[Any], failed: RoomNotBooked, room: Room) -> str:
        """Exactly what the site holds now: nothing, or the event without its room."""
        reason = failed.refusal or ctx.tr(EventTexts.SITE_FAILED)
        if isinstance(failed, EventLeftBehind):
            event = failed.event
            when = f"{day_label(event.day, ctx.lang)} {event.start:%H:%M}–{event.end:%H:%M}"
            return ctx.tr(
                EventTexts.LEFT_BEHIND,
                title=event.title,
                when=when,
                url=event.url,
                room=room_label(room),
                reason=reason,
            )
        title = ctx.slots.title or ""
        return ctx.tr(EventTexts.ROOM_NOT_BOOKED, room=room_label(room), title=title, reason=reason)

    def _room(self, ctx: StepContext[Any]) -> Room | None:
        """The room asked for, or the one picked instead of a taken one."""
        picked = ctx.answer("other_room")
        name = picked or ctx.slots.room_name
        if not name or name == NO_ROOM:
            return None
        catalogue = self._catalogues.current
        room = next((r for r in catalogue.rooms if r.id == picked), None) if picked else None
        room = room or find_room(name, catalogue)
        if room is None:
            raise ScenarioError(ctx.tr(EventTexts.UNKNOWN_ROOM, room=name))
        return room

    async def _ask_another_room(self, ctx: StepContext[Any], taken: Room) -> NoReturn:
        """Ask for a room that is free then (the site's availability), or for none."""
        slots: EventSlots = ctx.slots
        assert slots.date is not None and slots.start is not None and slots.end is not None
        free: list[Room] = []
        if self._free_rooms is not None:
            # The free rooms are read on a browser context of their own: the run gives its
            # events one back first, so that one run never holds two (a pool of one would
            # wait for ever). The step opens it again when it is run after the answer.
            await self._desk.release(ctx.run_id)
            free = await self._free_rooms.near(ctx, taken, slots.date, slots.start, slots.end)
        options = [Option(id=room.id, label=room_label(room)) for room in free[:_ROOM_OPTIONS]]
        options.append(Option(id=NO_ROOM, label=ctx.tr(EventTexts.NO_ROOM)))
        ctx.ask(
            "other_room",
            ctx.tr(EventTexts.ROOM_TAKEN, room=room_label(taken)),
            options,
            allow_free_text=False,
        )

    def summary(self, ctx: StepContext[Any]) -> str:
        created = ctx.result("create", Created)
        event = created.event
        when = f"{day_label(event.day, ctx.lang)} {event.start:%H:%M}–{event.end:%H:%M}"
        # What was booked, as the create step saw it: the catalogue may have changed since.
        where = ctx.tr(EventTexts.IN_ROOM, room=created.room) if created.room else ""
        return ctx.tr(EventTexts.CREATED, title=event.title, when=when, where=where, url=event.url)

    async def release(self, run_id: str) -> None:
        await self._desk.release(run_id)
        if self._free_rooms is not None:
            await self._free_rooms.release(run_id)
