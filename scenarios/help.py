"""``help`` and ``unknown``: what the bot can do, with examples, in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rapidfuzz import fuzz, process

from core.assist.answerer import UnknownAnswerer
from core.commands import Command, Lang
from core.nlu import Decision, Intent
from core.scenario import BaseScenario, GuideScenario, InstantScenario
from core.texts import Guide, tr

__all__ = [
    "DeclineScenario",
    "HelpScenario",
    "UnknownScenario",
    "examples",
    "greeting",
    "help_text",
]


def examples(lang: Lang, also: Sequence[BaseScenario] = ()) -> list[str]:
    """What one can write, in ``lang`` (with what the plug-in scenarios ``also`` offer)."""
    own = [tr(example, lang) for example in Guide.EXAMPLES]
    return own + [example for scenario in also for example in scenario.examples(lang)]


def _bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)


def help_text(lang: Lang, also: Sequence[BaseScenario] = ()) -> str:
    return tr(Guide.HELP, lang, examples=_bullets(examples(lang, also)))


def greeting(lang: Lang, name: str, also: Sequence[BaseScenario] = ()) -> str:
    hello = tr(Guide.GREETING, lang, name=name) if name else ""
    return hello + help_text(lang, also)


def closest_examples(text: str, lang: Lang, *, limit: int = 2) -> list[str]:
    found = process.extract(text.lower(), examples(lang), scorer=fuzz.token_set_ratio, limit=limit)
    return [example for example, _, _ in found]


class HelpScenario(GuideScenario):
    """``also``: the scenarios plugged in beside booking, whose examples /help lists."""

    name = "help"
    intents: ClassVar[frozenset[str]] = frozenset({Intent.HELP})
    descriptions: ClassVar[Mapping[str, str]] = {Intent.HELP: "what can the assistant do"}

    def __init__(self, *, also: Sequence[BaseScenario] = ()) -> None:
        self._also = list(also)

    async def respond(self, command: Command, decision: Decision) -> str:
        return help_text(decision.lang, self._also)

    def greeting(self, lang: Lang, name: str) -> str:
        return greeting(lang, name, self._also)

    def help_text(self, lang: Lang) -> str:
        return help_text(lang, self._also)


class UnknownScenario(InstantScenario):
    """The fallback: scores low on purpose so it never beats a real scenario.

    With an ``answerer`` (an LLM) it answers the message briefly, then says what it can do.
    """

    name = "unknown"
    intents: ClassVar[frozenset[str]] = frozenset({Intent.UNKNOWN})
    descriptions: ClassVar[Mapping[str, str]] = {
        Intent.UNKNOWN: "anything else (chit-chat, questions about other topics)"
    }

    def __init__(self, *, answerer: UnknownAnswerer | None = None) -> None:
        self._answerer = answerer

    def score(self, decision: Decision) -> float:
        return 0.1 if decision.intent == Intent.UNKNOWN else 0.0

    async def respond(self, command: Command, decision: Decision) -> str:
        if self._answerer is not None:
            said = await self._answerer.answer(
                command.text, lang=decision.lang, user_id=command.user_id
            )
            if said:
                return f"{said}\n\n{tr(Guide.CAN_DO, decision.lang)}"
        closest = closest_examples(command.text, decision.lang)
        return tr(Guide.UNKNOWN, decision.lang, closest=_bullets(closest))


class DeclineScenario(InstantScenario):
    """A refusal («не бронируй ничего», "never mind, don't book"): nothing is done, and the
    user is told so, so that silence is never mistaken for a booking."""

    name = "decline"
    intents: ClassVar[frozenset[str]] = frozenset({Intent.DECLINE})
    descriptions: ClassVar[Mapping[str, str]] = {
        Intent.DECLINE: "the user says not to do or change anything («не бронируй ничего», "
        '"never mind")'
    }

    async def respond(self, command: Command, decision: Decision) -> str:
        return tr(Guide.DECLINED, decision.lang)
