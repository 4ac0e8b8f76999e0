"""``book_rooms``: log in → find free rooms → book each → verify in «Мои брони»,
on whichever booking system the product is configured with (``scenarios.booking.port``).

Every step may run again (after a restart, or after the user answered a question),
so each checks before it acts: the booking step first looks in «Мои брони» for the
exact booking and never books it twice. A run that has sent no booking yet (it marks
itself before it sends: ``ctx.acting``) has nothing there to find, and skips the look.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel

from core.calendar import CalendarEvent
from core.commands import Lang
from core.errors import PortalError, ScenarioError, UncertainOutcome
from core.nlu import Decision
from core.output import Option
from core.pause import NeedsAnswer, QuestionSpec
from core.scenario import SlotContext, Step, StepContext, StepScenario, Utterance
from core.site.catalogue import Catalogues
from core.site.errors import OutcomeUnconfirmed
from core.site.models import Room
from core.store import ScenarioRun
from core.texts import Calendar, day_label, tr
from scenarios.booking.alternatives import Placement, as_options, find_alternatives
from scenarios.booking.errors import SlotTaken
from scenarios.booking.guess import BookingGuessing
from scenarios.booking.marks import purpose_for
from scenarios.booking.models import Availability, Booking
from scenarios.booking.port import BookingSession
from scenarios.booking.records import ReminderRoom
from scenarios.booking.reminders import BookedRequest, Reminders
from scenarios.booking.selection import Want, choose_rooms
from scenarios.booking.slots import ANY_BUILDING, BookingSlots, check_booking
from scenarios.booking.texts import Book, BookingGuide, join_rooms, span
from scenarios.booking.vocabulary import BookingIntent, BookingReader
from scenarios.booking.vocabulary.words import BookingWords
from scenarios.booking.work import PortalWork

__all__ = ["BookRooms", "Booked", "Found", "PreferenceStore", "Verified"]

_BOOK = "book"  # the step that sends bookings (``ctx.acting``)


# What the steps return, checkpointed with the run: a resumed run reads them back as they
# were.
class Found(BaseModel):
    """``find``: the rooms to book and where; ``alts`` alternatives were chosen by then."""

    place: Placement
    rooms: list[Room]
    alts: int


class Booked(BaseModel):
    """``book``: the site's booking numbers, one per room."""

    numbers: list[str]
    place: Placement
    rooms: list[Room]


class Verified(BaseModel):
    verified: list[str]


class PreferenceStore(Protocol):
    async def ranked(self, user_id: int, key: str) -> list[str]: ...
    async def bump(self, user_id: int, key: str, value: str) -> None: ...


def _want(slots: BookingSlots) -> Want:
    count = len(slots.room) if slots.room else slots.rooms
    return Want(count=count, adjacent=slots.adjacent, capacity=slots.capacity, numbers=slots.room)


def _matches(booking: Booking, place: Placement, run_id: str) -> bool:
    return (
        booking.is_live
        and booking.purpose.strip() == purpose_for(run_id)
        and booking.building == place.building
        and booking.day == place.day
        and booking.start == place.start
        and booking.end == place.end
    )


async def _booked_before(
    session: BookingSession, place: Placement, run_id: str
) -> dict[str, Booking]:
    """Run ``run_id``'s live bookings at ``place`` in «my bookings», by room."""
    return {b.room: b for b in await session.my_bookings() if _matches(b, place, run_id)}


class BookRooms(BookingWords, StepScenario[BookingSlots]):
    name = "book_rooms"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.BOOK_ROOMS})
    descriptions: ClassVar[Mapping[str, str]] = {
        BookingIntent.BOOK_ROOMS: "book one or more rooms for a date and time"
    }
    acting: ClassVar[frozenset[str]] = frozenset({BookingIntent.BOOK_ROOMS})
    slot_model = BookingSlots
    guessable = ("date", "start", "end")
    guessing = BookingGuessing()
    title_text = Book.TITLE

    def about(self, lang: Lang) -> str:
        return tr(BookingGuide.ABOUT, lang)

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(example, lang) for example in BookingGuide.BOOK]

    def __init__(
        self,
        *,
        work: PortalWork,
        preferences: PreferenceStore,
        catalogues: Catalogues,
        reminders: Reminders | None = None,
    ) -> None:
        self._work = work
        self._preferences = preferences
        self._catalogues = catalogues
        self._reminders = reminders  # None: no reminders planned (a bench, a test)
        self._reader = BookingReader()

    def recognise(self, said: Utterance, decision: Decision) -> Decision:
        """Any booking command (the planner hands each intent to its scenario): the words
        are read once a message, not once per booking scenario."""
        return self._reader.recognise(said, decision)

    # --- slots -----------------------------------------------------------------------

    def initial_slots(self, decision: Decision) -> dict[str, Any]:
        slots = super().initial_slots(decision)
        slots.pop("recurrence", None)
        return slots

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [name for name in ("date", "start", "end", "building") if name not in slots]

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        return check_booking(
            slots,
            ctx.lang,
            today=ctx.now.astimezone(ctx.tz).date(),
            catalogue=self._catalogues.current,
        )

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        question = await super().slot_question(slot, ctx)
        if slot == "building":
            question.options = await self._building_options(ctx)
            question.allow_free_text = True
        return question

    async def _building_options(self, ctx: SlotContext) -> list[Option]:
        catalogue = self._catalogues.current
        ranked = [
            code
            for code in await self._preferences.ranked(ctx.user_id, "building")
            if catalogue.building(code) is not None
        ]
        options: list[Option] = []
        if ranked:
            usual = catalogue.building_label(ranked[0], ctx.lang)
            label = tr(Book.AS_USUAL, ctx.lang, building=usual)
            options.append(Option(id=ranked[0], label=label))
        options += [
            Option(id=b.code, label=b.label(ctx.lang))
            for b in catalogue.buildings
            if not ranked or b.code != ranked[0]
        ]
        options.append(Option(id=ANY_BUILDING, label=tr(Book.ANY_BUILDING, ctx.lang)))
        return options

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        if slot == "building" and option_id is None and text:
            lowered = text.strip().lower()
            if lowered in ("любой", "любое", "any", "anywhere", "всё равно", "все равно"):
                return ANY_BUILDING
        return super().parse_answer(slot, option_id=option_id, text=text, ctx=ctx)

    # --- steps ------------------------------------------------------------------------

    def steps(self) -> Sequence[Step]:
        return [
            Step("login", Book.STEP_LOGIN, self._login),
            Step("find", Book.STEP_FIND, self._find),
            Step(_BOOK, Book.STEP_BOOK, self._book),
            Step("verify", Book.STEP_VERIFY, self._verify),
        ]

    async def _login(self, ctx: StepContext[Any]) -> None:
        await self._work.session(ctx)

    async def _buildings(self, ctx: StepContext[Any]) -> list[str]:
        slots: BookingSlots = ctx.slots
        if slots.building and slots.building != ANY_BUILDING:
            return [slots.building]
        codes = [b.code for b in self._catalogues.current.buildings]
        ranked = [c for c in await self._preferences.ranked(ctx.user_id, "building") if c in codes]
        return ranked + [code for code in codes if code not in ranked]

    @staticmethod
    def _alt_keys(ctx: StepContext[Any]) -> list[str]:
        return sorted((k for k in ctx.answers if k.startswith("alt")), key=lambda k: int(k[3:]))

    def _placement(self, ctx: StepContext[Any]) -> Placement:
        """The requested placement, moved by every alternative the user chose so far."""
        slots: BookingSlots = ctx.slots
        assert slots.date and slots.start and slots.end
        place = Placement(
            building=slots.building or ANY_BUILDING,
            day=slots.date,
            start=slots.start,
            end=slots.end,
        )
        for key in self._alt_keys(ctx):
            place = Placement.from_option_id(ctx.answers[key], self._catalogues.current)
        return place

    async def _ours(
        self, ctx: StepContext[Any], session: BookingSession, place: Placement
    ) -> list[str]:
        """The rooms this run booked already (they show as taken); a run that has sent
        no booking has none, and «my bookings» is not read for it."""
        if not ctx.acting.may_have(_BOOK):
            return []
        return list(await _booked_before(session, place, ctx.run_id))

    async def _find(self, ctx: StepContext[Any]) -> Found:
        session = await self._work.session(ctx)
        if not self._catalogues.known:  # never read yet: learn it from this run's session
            await self._catalogues.learn(await session.catalogue())
        want = _want(ctx.slots)
        wanted = self._placement(ctx)
        alts = len(self._alt_keys(ctx))
        moved = alts > 0
        candidates = [wanted.building] if moved else await self._buildings(ctx)
        if not candidates:
            raise PortalError(ctx.tr(Book.NO_BUILDINGS))
        for building in candidates:
            place = wanted.model_copy(update={"building": building})
            if (found := await self._free(ctx, session, want, place, alts)) is not None:
                return found
        first = wanted.model_copy(update={"building": candidates[0]})
        problem = await self._no_rooms(ctx, session, want, first, len(candidates))
        picked = await self._work.pick_alternative(ctx, "find", problem)  # the LLM brain
        if picked is not None:
            chosen = Placement.from_option_id(picked, self._catalogues.current)
            if (found := await self._free(ctx, session, want, chosen, alts)) is not None:
                return found
        raise problem

    async def _free(
        self,
        ctx: StepContext[Any],
        session: BookingSession,
        want: Want,
        place: Placement,
        alts: int,
    ) -> Found | None:
        ours = await self._ours(ctx, session, place)
        free = await session.availability(place.building, place.day)
        rooms = choose_rooms(free, want, place.start, place.end, ours=ours)
        return Found(place=place, rooms=rooms, alts=alts) if rooms else None

    async def _no_rooms(
        self,
        ctx: StepContext[Any],
        session: BookingSession,
        want: Want,
        wanted: Placement,
        tried: int,
    ) -> Exception:
        """What to raise when the rooms are not free: a question with real alternatives,
        or an error when there are none."""
        local_now = ctx.now.astimezone(ctx.tz).replace(tzinfo=None)
        catalogue = self._catalogues.current
        places = await find_alternatives(
            want, wanted, catalogue=catalogue, read=session.availability, now=local_now
        )
        what = (
            ctx.tr(Book.SOME_ROOMS, count=want.count) if want.count > 1 else ctx.tr(Book.ONE_ROOM)
        )
        where = (
            ctx.tr(Book.NO_BUILDING)
            if tried > 1
            else catalogue.building_label(wanted.building, ctx.lang)
        )
        when = f"{day_label(wanted.day, ctx.lang)} {span(wanted.start, wanted.end)}"
        if not places:
            return ScenarioError(ctx.tr(Book.NOTHING_FREE, what=what, where=where, when=when))
        return NeedsAnswer(
            QuestionSpec(
                key=f"alt{len(self._alt_keys(ctx)) + 1}",
                text=ctx.tr(Book.NOT_AVAILABLE, what=what, where=where, when=when),
                options=as_options(places, catalogue, ctx.lang),
                allow_free_text=False,
            )
        )

    async def _book(self, ctx: StepContext[Any]) -> Booked:
        session = await self._work.session(ctx)
        found = ctx.result("find", Found)
        if len(self._alt_keys(ctx)) > found.alts:
            # The user chose an alternative after a room was taken under us: look again.
            found = await self._find(ctx)
        place = found.place
        existing = {}
        day: Availability | None = None
        if await ctx.acting.begin(_BOOK):  # marked before the first booking is sent
            existing = await _booked_before(session, place, ctx.run_id)
            if any(room.number not in existing for room in found.rooms):
                # An earlier try may have sent one whose answer it never read: a room not
                # listed is sent only if the day shows it free (never twice).
                day = await session.availability(place.building, place.day)
        numbers: list[str] = []
        for room in found.rooms:
            if room.number in existing:  # booked before a restart: not again
                numbers.append(existing[room.number].number)
                continue
            if day is not None and not day.is_free(room.number, place.start, place.end):
                raise UncertainOutcome(self._unconfirmed(ctx, place, room.number, found, numbers))
            try:
                booking = await session.book(
                    room=room,
                    day=place.day,
                    start=place.start,
                    end=place.end,
                    purpose=purpose_for(ctx.run_id),
                    attendees=ctx.slots.capacity,
                )
            except SlotTaken:
                raise await self._no_rooms(ctx, session, _want(ctx.slots), place, 1) from None
            except OutcomeUnconfirmed as exc:
                text = self._unconfirmed(ctx, place, room.number, found, numbers)
                raise UncertainOutcome(text) from exc
            numbers.append(booking.number)
        return Booked(numbers=numbers, place=place, rooms=found.rooms)

    def _unconfirmed(
        self, ctx: StepContext[Any], place: Placement, room: str, found: Found, numbers: list[str]
    ) -> str:
        """The plain answer for a room that may be booked: which it is, where, what to
        check, and the rooms this run did book before it."""
        text = ctx.tr(Book.UNCONFIRMED, room=room, where=self._where(place, ctx.lang))
        booked = [r.number for r in found.rooms[: len(numbers)]]
        if booked:
            text = f"{ctx.tr(Book.BOOKED_BEFORE, rooms=join_rooms(booked))} {text}"
        return text

    async def _verify(self, ctx: StepContext[Any]) -> Verified:
        session = await self._work.session(ctx)
        booked = ctx.result("book", Booked)
        numbers = set(booked.numbers)
        try:
            listed = await session.my_bookings()
        except PortalError as exc:  # made, and the list not readable: the day tells
            await self._held_on_the_day(ctx, session, booked, exc)
        else:
            missing = numbers - {b.number for b in listed if b.is_live}
            if missing:  # made (the site gave their numbers): not a failure, but say so
                text = ctx.tr(Book.NOT_VERIFIED, numbers=join_rooms(sorted(missing)))
                raise UncertainOutcome(text)
        await self._preferences.bump(ctx.user_id, "building", booked.place.building)
        return Verified(verified=sorted(numbers))

    async def _held_on_the_day(
        self, ctx: StepContext[Any], session: BookingSession, booked: Booked, unread: PortalError
    ) -> None:
        """The rooms just booked, checked on the day's grid when «my bookings» cannot be
        read: held at the booked time is confirmed; anything else is said as it is (the
        bookings were made: never «не получилось»)."""
        place = booked.place
        try:
            day = await session.availability(place.building, place.day)
        except PortalError:
            day = None
        if day is not None and not any(
            day.is_free(room.number, place.start, place.end) or day.room(room.number) is None
            for room in booked.rooms
        ):
            return
        rooms = join_rooms([room.number for room in booked.rooms])
        raise UncertainOutcome(
            ctx.tr(Book.NOT_CHECKED, rooms=rooms, reason=unread.message)
        ) from unread

    def summary(self, ctx: StepContext[Any]) -> str:
        booked = ctx.result("book", Booked)
        rooms = [room.number for room in booked.rooms]
        booked_text = Book.BOOKED_MANY if len(rooms) > 1 else Book.BOOKED_ONE
        where = self._where(booked.place, ctx.lang)
        return ctx.tr(booked_text, rooms=join_rooms(rooms), where=where)

    def _where(self, place: Placement, lang: Lang) -> str:
        """«Главный корпус, чт 26.11, 18:00–20:00»: the building, day and time of ``place``."""
        where = self._catalogues.current.building_label(place.building, lang)
        return f"{where}, {day_label(place.day, lang)}, {span(place.start, place.end)}"

    def calendar(self, ctx: StepContext[Any]) -> list[CalendarEvent]:
        booked = ctx.result("book", Booked)
        place = booked.place
        where = self._catalogues.current.building_label(place.building, ctx.lang)
        return [
            CalendarEvent(
                uid=number,
                title=ctx.tr(Calendar.TITLE, room=room.number),
                location=f"{room.number}, {where}",
                day=place.day,
                start=place.start,
                end=place.end,
            )
            for number, room in zip(booked.numbers, booked.rooms, strict=True)
        ]

    async def on_done(self, run: ScenarioRun, ctx: StepContext[Any]) -> None:
        if self._reminders is not None:
            await self._reminders.plan(run, self.booked(ctx))

    def booked(self, ctx: StepContext[Any]) -> BookedRequest:
        """What the run booked: the request its reminder is planned for."""
        booked = ctx.result("book", Booked)
        place = booked.place
        return BookedRequest(
            place=self._catalogues.current.building_label(place.building, ctx.lang),
            day=place.day,
            start=place.start,
            end=place.end,
            rooms=[
                ReminderRoom(number=number, room=room.number)
                for number, room in zip(booked.numbers, booked.rooms, strict=True)
            ],
        )

    async def screenshot(self, run_id: str) -> bytes | None:
        return await self._work.screenshot(run_id)

    async def release(self, run_id: str) -> None:
        await self._work.release(run_id)
