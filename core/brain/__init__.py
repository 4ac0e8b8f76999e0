"""The scenario's brain for unexpected pages and choices (ARCHITECTURE §1 step 6).

    brain = Brain(llm_or_None, memory)
    await brain.resolve_page(ctx, step="login", expected=..., page=snapshot,
                             driver=session, probe=probe)       # returns once past it
    option = await brain.choose_alternative(ctx, situation)     # or None: ask the user

Decisions are validated against the allowed actions (``check_decision``, on text folded
against look-alikes by ``harm``); page text is quoted as untrusted data (``prompt``); the
driver presses the summarised element under a network guard (``HarmPrevented``); model
text for the user passes ``spoken``; resolutions that got past the guard are remembered
by page signature; element picks whose step failed are kept per profile part
(``RejectedPicks``) and never offered again.
"""

from __future__ import annotations

from core.brain.brain import Brain, PageDriver, PageProbe
from core.brain.choices import ABORT_ID, ask_about_page, user_choices
from core.brain.element import ElementChoice, ElementPicker, ElementWanted
from core.brain.events import BrainConsulted, BrainDecided, LLMCalled
from core.brain.memory import BrainMemory, InMemoryBrainMemory
from core.brain.models import (
    ACTIONS,
    Action,
    BrainDecision,
    ClickTarget,
    PageSnapshot,
    Situation,
    UserChoice,
)
from core.brain.prompt import SYSTEM, quote_page, render_situation
from core.brain.rejected import RejectedPicks
from core.brain.speech import MAX_SPOKEN, spoken
from core.brain.validate import (
    FORBIDDEN,
    check_decision,
    is_forbidden,
    page_signature,
    present,
    safe_targets,
)
from core.browser.harm import ControlRefused, HarmPrevented, RequestBlocked, fold

__all__ = [
    "ABORT_ID",
    "ACTIONS",
    "FORBIDDEN",
    "MAX_SPOKEN",
    "SYSTEM",
    "Action",
    "Brain",
    "BrainConsulted",
    "BrainDecided",
    "BrainDecision",
    "BrainMemory",
    "ClickTarget",
    "ElementChoice",
    "ElementPicker",
    "ElementWanted",
    "ControlRefused",
    "HarmPrevented",
    "InMemoryBrainMemory",
    "LLMCalled",
    "PageDriver",
    "PageProbe",
    "PageSnapshot",
    "RejectedPicks",
    "RequestBlocked",
    "Situation",
    "UserChoice",
    "ask_about_page",
    "check_decision",
    "fold",
    "is_forbidden",
    "page_signature",
    "present",
    "quote_page",
    "render_situation",
    "safe_targets",
    "spoken",
    "user_choices",
]
