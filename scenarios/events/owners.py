"""Whose an event on the site is, for ``core.authz``, as ``scenarios.booking.owners`` has
it for bookings: the club's events are the ones its requests made, each the member's
whose request it was (the run mark in its description names the run, the run its asker);
one the club's account made outside the bot (or by a run no longer stored) is the
administrators'. An event another account made in a category the club shares is no one's
here, whatever mark its description carries (a description is easily copied): it is
never listed, opened, counted or cancelled, and naming it is refused plainly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.authz import Actor, may_act
from core.store import RunStore
from scenarios.events.models import Event, run_of
from scenarios.events.vocabulary import CREATE_EVENT

__all__ = ["EventOwners", "Sorted"]


@dataclass(frozen=True, slots=True)
class Sorted:
    """Events as one actor sees them: what they may act on, and what they may not."""

    theirs: list[Event] = field(default_factory=list)
    not_theirs: list[Event] = field(default_factory=list)
    # Of ``not_theirs``, those the club did not make at all (another account's).
    foreign: list[Event] = field(default_factory=list)


class EventOwners:
    def __init__(self, *, runs: RunStore) -> None:
        self._runs = runs

    async def owner(self, event: Event) -> tuple[bool, int | None]:
        """Whether ``event`` is the club's, and the member whose request made it (``None``:
        the administrators')."""
        run_id = run_of(event.description)
        run = await self._runs.get(run_id) if run_id else None
        made_by_run = run is not None and run.scenario == CREATE_EVENT
        if event.by_club is False or (event.by_club is None and not made_by_run):
            return False, None
        return True, run.user_id if run is not None and made_by_run else None

    async def sort(self, actor: Actor, events: Sequence[Event]) -> Sorted:
        sorted_ = Sorted()
        for event in events:
            clubs, owner = await self.owner(event)
            if clubs and may_act(actor, owner):
                sorted_.theirs.append(event)
            else:
                sorted_.not_theirs.append(event)
                if not clubs:
                    sorted_.foreign.append(event)
        return sorted_
