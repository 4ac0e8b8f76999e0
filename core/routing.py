"""What a text sent while the chat has a question waiting is: the answer to it, a new
command beside it, the same command again, or a refusal that drops it. Decided from the
parse alone; the manager acts on it."""

from __future__ import annotations

from core.commands import Command
from core.nlu import Decision, Intent
from core.store import ScenarioRun

__all__ = ["declines", "forced_intent", "is_command_of", "repeats", "starts_other"]

# A text sent while a question waits is taken as a new command only when the rules are
# this sure of it; otherwise it is an answer (and asked again if it does not parse).
NEW_COMMAND_CONFIDENCE = 0.8


def forced_intent(command: Command) -> str | None:
    """The intent a view set for an explicit command (/bookings)."""
    return command.intent or None


def starts_other(command: Command, decision: Decision, waiting: ScenarioRun) -> bool:
    """A command of another kind (or a slash command) starts beside the waiting run."""
    if forced_intent(command) is not None:
        return True
    return (
        decision.intent != Intent.UNKNOWN
        and decision.confidence >= NEW_COMMAND_CONFIDENCE
        and decision.intent != waiting.scenario
    )


def declines(decision: Decision, waiting: ScenarioRun | None) -> bool:
    """«не надо ничего бронировать» while one's own request waits (the manager looks only
    at the user's own): it is dropped."""
    return (
        waiting is not None
        and decision.intent == Intent.DECLINE
        and decision.confidence >= NEW_COMMAND_CONFIDENCE
    )


def is_command_of(decision: Decision, run: ScenarioRun) -> bool:
    return decision.intent == run.scenario and decision.confidence >= NEW_COMMAND_CONFIDENCE


def repeats(decision: Decision, waiting: ScenarioRun) -> bool:
    """A complete command of the waiting run's kind: the parser would execute it as is
    (a partial one, "забронируй на пятницу", is still an answer)."""
    return is_command_of(decision, waiting) and decision.next_action == "execute"
