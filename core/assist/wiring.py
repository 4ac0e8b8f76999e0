"""``Assist``: every LLM helper for one (optional) LLM, built in one place."""

from __future__ import annotations

from dataclasses import dataclass

from core.assist.answerer import LLMAnswerer, UnknownAnswerer
from core.assist.classifier import LLMIntentClassifier
from core.assist.extractor import LLMSlotExtractor, SlotExtractor
from core.brain import Brain, BrainMemory
from core.llm import LLM
from core.planner import IntentClassifier

__all__ = ["Assist"]


@dataclass(frozen=True, slots=True)
class Assist:
    classifier: IntentClassifier | None
    extractor: SlotExtractor | None
    answerer: UnknownAnswerer | None
    brain: Brain  # always there: without an LLM it asks the user

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
        )
