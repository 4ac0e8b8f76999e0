"""A real multi-step scenario for core tests: it records every step execution, pauses on
a confirmation question, and can be told to block so tests can kill it mid-run."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from core.commands import Lang
from core.nlu import Decision
from core.output import Option
from core.scenario import BaseScenario, SlotContext, Step, StepContext, StepScenario, Utterance
from core.texts import Common, Text, tr
from scenarios.booking.guess import BookingGuessing
from scenarios.booking.texts import BookingGuide
from scenarios.booking.vocabulary import BookingIntent, BookingReader
from scenarios.help import HelpScenario, Showcase, UnknownScenario

__all__ = [
    "Confirmed",
    "ReserveSlots",
    "ShowsBooking",
    "StepDone",
    "TrackedScenario",
    "with_help",
]


class ReserveSlots(BaseModel):
    date: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    rooms: int | None = None


class StepDone(BaseModel):
    step: str
    day: dt.date


class Confirmed(BaseModel):
    go: str | None


class ShowsBooking:
    """A test's ``book_rooms`` stand-in reads commands in the booking job's words, and
    /help says of it what it says of the product's."""

    def recognise(self, said: Utterance, decision: Decision) -> Decision:
        return BookingReader().recognise(said, decision)

    def about(self, lang: Lang) -> str:
        return tr(BookingGuide.ABOUT, lang)

    def examples(self, lang: Lang) -> Sequence[str]:
        return [tr(example, lang) for example in BookingGuide.BOOK]


def with_help(*jobs: BaseScenario) -> list[BaseScenario]:
    """``jobs`` and the help and unknown scenarios showing them, as the registry builds."""
    showcase = Showcase(jobs)
    return [*jobs, HelpScenario(showcase=showcase), UnknownScenario(showcase=showcase)]


class TrackedScenario(ShowsBooking, StepScenario[ReserveSlots]):
    """Serves ``book_rooms`` in core tests; the product's booking scenario is elsewhere."""

    name = "book_rooms"
    intents: ClassVar[frozenset[str]] = frozenset({BookingIntent.BOOK_ROOMS})
    slot_model = ReserveSlots
    guessable = ("date", "start", "end")
    guessing = BookingGuessing()
    title_text = Text("Тестовое бронирование", "Test booking")

    def __init__(self, *, confirm: bool = False) -> None:
        self.executed: list[str] = []
        self.confirm = confirm
        self.block_at: str | None = None
        self.blocked = asyncio.Event()
        self.unblock = asyncio.Event()
        self.release_delay = 0.0  # a slow wind-down, like closing a browser context
        self.fail_at: str | None = None  # this step raises ``failure``
        self.failure: Exception = RuntimeError("planted")

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [name for name in ("date", "start", "end") if name not in slots]

    def check_slots(self, slots: dict[str, Any], ctx: SlotContext) -> tuple[str, str] | None:
        if "start" in slots and "end" in slots and slots["end"] <= slots["start"]:
            return "end", "Конец раньше начала" if ctx.lang == "ru" else "End is before start"
        return None

    async def _step(self, ctx: StepContext[Any], name: str) -> StepDone:
        self.executed.append(name)
        if self.fail_at == name:
            raise self.failure
        if self.block_at == name:
            self.blocked.set()
            await self.unblock.wait()
        return StepDone(step=name, day=ctx.slots.date)

    async def _prepare(self, ctx: StepContext[Any]) -> StepDone:
        return await self._step(ctx, "prepare")

    async def _confirm(self, ctx: StepContext[Any]) -> Confirmed:
        self.executed.append("confirm?")
        if self.confirm:
            choice = ctx.answer("go")
            if choice is None:
                ctx.ask(
                    "go",
                    ctx.tr(Text("Продолжить?", "Go on?")),
                    [
                        Option(id="yes", label=ctx.tr(Common.YES)),
                        Option(id="no", label=ctx.tr(Common.NO)),
                    ],
                    allow_free_text=False,
                )
            return Confirmed(go=choice)
        return Confirmed(go="yes")

    async def _finish(self, ctx: StepContext[Any]) -> StepDone:
        return await self._step(ctx, "finish")

    def steps(self) -> Sequence[Step]:
        return [
            Step("prepare", Text("Подготовка", "Preparing"), self._prepare),
            Step("confirm", Text("Подтверждение", "Confirming"), self._confirm),
            Step("finish", Text("Завершение", "Finishing"), self._finish),
        ]

    async def release(self, run_id: str) -> None:
        await asyncio.sleep(self.release_delay)

    def summary(self, ctx: StepContext[Any]) -> str:
        slots = ctx.slots
        return f"Готово: {slots.date} {slots.start:%H:%M}–{slots.end:%H:%M}"
