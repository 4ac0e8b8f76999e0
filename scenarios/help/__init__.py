"""``help`` and ``unknown``: what the bot can do, with examples, in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rapidfuzz import fuzz, process

from core.assist.answerer import UnknownAnswerer
from core.commands import Command, Lang
from core.nlu import Decision, Intent, detect_lang
from core.nlu.analysis import analyze
from core.scenario import BaseScenario, GuideScenario, InstantScenario, Utterance
from core.texts import Guide, tr

__all__ = [
    "DeclineScenario",
    "HelpScenario",
    "Showcase",
    "UnknownScenario",
    "help_text",
]


class Showcase:
    """What the registered scenarios say of themselves for /help: a line of what each job
    does, and requests one can write (also matched against what the user wrote when
    nothing understood it)."""

    def __init__(self, scenarios: Sequence[BaseScenario] = ()) -> None:
        self._scenarios = list(scenarios)

    def examples(self, lang: Lang) -> list[str]:
        return [example for scenario in self._scenarios for example in scenario.examples(lang)]

    def about(self, lang: Lang) -> list[str]:
        said = (scenario.about(lang) for scenario in self._scenarios)
        return [line for line in said if line]

    def closest(self, text: str, lang: Lang, *, limit: int = 2) -> list[str]:
        found = process.extract(
            text.lower(), self.examples(lang), scorer=fuzz.token_set_ratio, limit=limit
        )
        return [example for example, _, _ in found]


_SURE = 0.9  # as sure as a job's reading of a plain request for help


def _bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)


def help_text(lang: Lang, showcase: Showcase) -> str:
    examples = showcase.examples(lang)
    listed = [tr(Guide.EXAMPLES, lang, examples=_bullets(examples))] if examples else []
    return "\n\n".join([*showcase.about(lang), *listed, tr(Guide.COMMANDS, lang)])


class HelpScenario(GuideScenario):
    """Lists what the scenarios of ``showcase`` (every registered one) say of themselves."""

    name = "help"
    intents: ClassVar[frozenset[str]] = frozenset({Intent.HELP})
    descriptions: ClassVar[Mapping[str, str]] = {Intent.HELP: "what can the assistant do"}

    def __init__(self, *, showcase: Showcase | None = None) -> None:
        self._showcase = showcase or Showcase()

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        """A request for help in the engine's words («помощь», «что ты умеешь»), when no
        job read the command as anything: a job's own reading weighs help against its
        requests («как забронировать?» is help, «помоги забронировать 301…» a booking)."""
        if decision.intent != Intent.UNKNOWN:
            return None
        if not any(tok.is_("HELP") for tok in analyze(said.text)):
            return None
        return Decision(intent=Intent.HELP, confidence=_SURE, lang=detect_lang(said.text))

    async def respond(self, command: Command, decision: Decision) -> str:
        return help_text(decision.lang, self._showcase)

    def greeting(self, lang: Lang, name: str) -> str:
        hello = tr(Guide.GREETING, lang, name=name) if name else ""
        return hello + help_text(lang, self._showcase)

    def help_text(self, lang: Lang) -> str:
        return help_text(lang, self._showcase)


class UnknownScenario(InstantScenario):
    """The fallback: scores low on purpose so it never beats a real scenario; it offers
    the ``showcase``'s examples closest to what was written.

    With an ``answerer`` (an LLM) it answers the message briefly, then says what it can do.
    """

    name = "unknown"
    intents: ClassVar[frozenset[str]] = frozenset({Intent.UNKNOWN})
    descriptions: ClassVar[Mapping[str, str]] = {
        Intent.UNKNOWN: "anything else (chit-chat, questions about other topics)"
    }

    def __init__(
        self, *, answerer: UnknownAnswerer | None = None, showcase: Showcase | None = None
    ) -> None:
        self._answerer = answerer
        self._showcase = showcase or Showcase()

    def score(self, decision: Decision) -> float:
        return 0.1 if decision.intent == Intent.UNKNOWN else 0.0

    async def respond(self, command: Command, decision: Decision) -> str:
        if self._answerer is not None:
            said = await self._answerer.answer(
                command.text, lang=decision.lang, user_id=command.user_id,
                jobs=self._showcase.about("en"),
            )  # fmt: skip
            if said:
                abilities = [*self._showcase.about(decision.lang), tr(Guide.CAN_DO, decision.lang)]
                return f"{said}\n\n{' '.join(abilities)}"
        closest = self._showcase.closest(command.text, decision.lang)
        if not closest:
            return tr(Guide.NOT_UNDERSTOOD, decision.lang)
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
