"""The proxy planner: every registered scenario scores the command; the best wins.

Plug-in scenarios first recognise their own commands (``understand``). Low or tied
scores go to an optional classifier (an LLM, plugged in by the LLM layer), offered the
registered scenarios' intents; without one, or if it cannot decide, the command is
``unknown``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from core.nlu import Decision, Intent
from core.scenario import BaseScenario, Utterance

__all__ = ["Choice", "IntentClassifier", "ProxyPlanner"]


class IntentClassifier(Protocol):
    async def classify(self, text: str, intents: Mapping[str, str]) -> str | None:
        """One of ``intents`` (intent → what it means) for ``text``, or ``None``."""
        ...


@dataclass(frozen=True, slots=True)
class Choice:
    intent: str
    scenario: BaseScenario | None  # None: the intent is known but no scenario serves it
    score: float
    via: Literal["rules", "classifier"] = "rules"


class ProxyPlanner:
    def __init__(
        self,
        scenarios: Sequence[BaseScenario],
        *,
        classifier: IntentClassifier | None = None,
        threshold: float = 0.5,
        tie_margin: float = 0.05,
    ) -> None:
        self._scenarios = list(scenarios)
        self._acting = frozenset(i for scenario in self._scenarios for i in scenario.acting)
        self._classifier = classifier
        self._threshold = threshold
        self._tie_margin = tie_margin

    def _serving(self, intent: str) -> BaseScenario | None:
        return next((s for s in self._scenarios if intent in s.intents), None)

    def understand(self, said: Utterance, decision: Decision) -> Decision:
        """The rule parser's ``decision``, or a scenario's own reading of ``said`` when
        that one is surer. A command the parser found denied («не хочу создавать…»,
        «не надо открывать…») is never read as one that acts: such a claim is a refusal."""
        best = decision
        # "unknown" is sure only that nothing else is meant: any claim beats it
        sure = decision.confidence if decision.intent != Intent.UNKNOWN else 0.0
        denied = decision.negated or decision.intent == Intent.DECLINE
        for scenario in self._scenarios:
            claim = scenario.recognise(said, decision)
            if claim is None or claim.confidence <= sure:
                continue
            if denied and claim.intent in self._acting:
                claim = claim.model_copy(update={"intent": Intent.DECLINE, "negated": True})
            best, sure = claim, claim.confidence
        return best

    def _offered(self, decision: Decision) -> dict[str, str]:
        """What the classifier may answer: every registered intent but, for a negated
        command, those that make something happen."""
        offered: dict[str, str] = {}
        for scenario in self._scenarios:
            for intent in sorted(scenario.intents):
                if decision.negated and intent in scenario.acting:
                    continue
                offered[intent] = scenario.descriptions.get(intent, intent.replace("_", " "))
        return offered

    async def choose(self, text: str, decision: Decision) -> Choice:
        scored = sorted(
            ((s.score(decision), s) for s in self._scenarios), key=lambda pair: -pair[0]
        )
        best_score, best = scored[0] if scored else (0.0, None)
        runner_up = scored[1][0] if len(scored) > 1 else 0.0
        if (
            best is not None
            and best_score >= self._threshold
            and best_score - runner_up > self._tie_margin
        ):
            intent = decision.intent if decision.intent in best.intents else min(best.intents)
            return Choice(intent=intent, scenario=best, score=best_score)
        if self._classifier is not None:
            classified = await self._classifier.classify(text, self._offered(decision))
            if classified is not None and classified != Intent.UNKNOWN:
                return Choice(
                    intent=classified,
                    scenario=self._serving(classified),
                    score=best_score,
                    via="classifier",
                )
        if decision.intent != Intent.UNKNOWN and decision.confidence >= self._threshold:
            # Understood, but nothing registered serves it (e.g. booking not configured).
            return Choice(
                intent=decision.intent,
                scenario=self._serving(decision.intent),
                score=decision.confidence,
            )
        return Choice(intent=Intent.UNKNOWN, scenario=self._serving(Intent.UNKNOWN), score=0.0)
