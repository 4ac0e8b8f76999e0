"""The proxy planner: every registered scenario scores the command; the best wins.

First each job reads the command in its own words (``understand``: a scenario's
``recognise``; the engine names no job's words). Low or tied scores go to an optional
classifier (an LLM, plugged in by the LLM layer), offered the registered scenarios'
intents; without one, or if it cannot decide, the command is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from core.nlu import Decision, Intent, detect_lang
from core.scenario import BaseScenario, Utterance

__all__ = ["Choice", "IntentClassifier", "ProxyPlanner", "Reader"]


class Reader(Protocol):
    """What reads a command as one of its job's intents: a scenario, or a job's reading
    with nothing behind it (``clubman parse``)."""

    @property
    def acting(self) -> frozenset[str]:
        """The intents that make something happen (a refusal is never read as one)."""
        ...

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None: ...


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
        readers: Sequence[Reader] | None = None,
        classifier: IntentClassifier | None = None,
        threshold: float = 0.5,
        tie_margin: float = 0.05,
    ) -> None:
        self._scenarios = list(scenarios)
        self._readers: list[Reader] = list(self._scenarios if readers is None else readers)
        self._acting = frozenset(i for reader in self._readers for i in reader.acting)
        self._classifier = classifier
        self._threshold = threshold
        self._tie_margin = tie_margin

    def _serving(self, intent: str) -> BaseScenario | None:
        return next((s for s in self._scenarios if intent in s.intents), None)

    def understand(self, said: Utterance) -> Decision:
        """The surest of the jobs' readings of ``said``, asked in the order they were
        registered; ``unknown`` when none claims it. Once a reading finds the command
        denied («не бронируй», «не хочу создавать…»), no later one may read it as a
        command that acts: such a claim is a refusal."""
        unread = Decision(intent=Intent.UNKNOWN, confidence=0.0, lang=detect_lang(said.text))
        best, sure, denied = unread, 0.0, False
        for reader in self._readers:
            claim = reader.recognise(said, best)
            if claim is None:
                continue
            if claim.intent == Intent.UNKNOWN:
                # "unknown" is sure only that nothing else is meant: any claim beats it
                if best is unread:
                    best = claim
            elif claim.confidence > sure:
                if denied and claim.intent in self._acting:
                    claim = claim.model_copy(update={"intent": Intent.DECLINE, "negated": True})
                best, sure = claim, claim.confidence
            denied = denied or claim.negated or claim.intent == Intent.DECLINE
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
