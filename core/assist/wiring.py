"""``Assist``: every LLM helper for one (optional) LLM, built in one place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from core.assist.answerer import LLMAnswerer, UnknownAnswerer
from core.assist.classifier import LLMIntentClassifier
from core.assist.extractor import LLMSlotExtractor, SlotExtractor
from core.brain import Brain, BrainMemory, ElementPicker, LLMCalled
from core.events import EventBus
from core.llm import LLM, LLMCallRecord, LLMSettings, ResponseCache, SpendLedger, build_llm
from core.planner import IntentClassifier

__all__ = ["Assist", "open_assist"]


@dataclass(frozen=True, slots=True)
class Assist:
    classifier: IntentClassifier | None
    extractor: SlotExtractor | None
    answerer: UnknownAnswerer | None
    brain: Brain  # always there: without an LLM it asks the user
    # Names the element a site profile's locators no longer find (a site that changed).
    picker: ElementPicker | None = None

    @classmethod
    def build(
        cls, llm: LLM | None, memory: BrainMemory, *, timezone: str = "Europe/Moscow"
    ) -> Assist:
        if llm is None:
            return cls(classifier=None, extractor=None, answerer=None, brain=Brain(None, memory))
        return cls(
            classifier=LLMIntentClassifier(llm),
            extractor=LLMSlotExtractor(llm, tz=timezone),
            answerer=LLMAnswerer(llm),
            brain=Brain(llm, memory),
            picker=ElementPicker(llm),
        )


@asynccontextmanager
async def open_assist(
    settings: LLMSettings,
    *,
    cache: ResponseCache | None,
    ledger: SpendLedger,
    memory: BrainMemory,
    bus: EventBus,
    timezone: str = "Europe/Moscow",
) -> AsyncIterator[Assist]:
    """The LLM (``None`` when ``LLM__PROVIDERS`` is empty) and its helpers; every call is an
    ``LLMCalled`` event on ``bus``; the providers are closed on exit."""

    async def on_call(record: LLMCallRecord) -> None:
        await bus.publish(LLMCalled.of(record))

    llm = build_llm(settings, cache=cache, ledger=ledger, on_call=on_call)
    async with AsyncExitStack() as stack:
        if isinstance(llm, AbstractAsyncContextManager):
            await stack.enter_async_context(llm)
        yield Assist.build(llm, memory, timezone=timezone)
