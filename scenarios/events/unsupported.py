"""On a site without events, an events command is answered politely that this site
cannot, instead of being read as a booking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from core.commands import Command
from core.nlu import Decision, Intent
from core.scenario import InstantScenario, Utterance
from core.texts import tr
from scenarios.events.texts import EventTexts
from scenarios.events.vocabulary import INTENTS, read

__all__ = ["NoEvents"]


class NoEvents(InstantScenario):
    name = "no_events"
    intents: ClassVar[frozenset[str]] = INTENTS
    descriptions: ClassVar[Mapping[str, str]] = {
        intent: "anything about the club's events (this site has none)" for intent in INTENTS
    }

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        """An events command, or one refusing it («не создавай мероприятие»): that is a
        refusal here too, not a command nobody understood."""
        found = read(said, said.now.astimezone(said.tz).date())
        wanted = found is not None and (found.intent in INTENTS or found.intent == Intent.DECLINE)
        return found if wanted else None

    async def respond(self, command: Command, decision: Decision) -> str:
        return tr(EventTexts.UNSUPPORTED, decision.lang)
