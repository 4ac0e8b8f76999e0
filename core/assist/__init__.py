"""Where an LLM helps the rules: intent classification, slot gaps, unknown messages.

Each helper is optional: ``Assist.build(None, memory)`` gives the rules-only product.
"""

from __future__ import annotations

from core.assist.answerer import LLMAnswerer, ShortAnswer, UnknownAnswerer
from core.assist.classifier import IntentAnswer, LLMIntentClassifier
from core.assist.extractor import LLMSlotExtractor, SlotExtractor, fill_slots
from core.assist.wiring import Assist, open_assist

__all__ = [
    "Assist",
    "IntentAnswer",
    "LLMAnswerer",
    "LLMIntentClassifier",
    "LLMSlotExtractor",
    "ShortAnswer",
    "SlotExtractor",
    "UnknownAnswerer",
    "fill_slots",
    "open_assist",
]
