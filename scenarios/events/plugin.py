"""The events job's scenarios, as the registry adds them: all of them on a site with
events, else one that says politely this site has none."""

from __future__ import annotations

from core.scenario import BaseScenario
from core.site.catalogue import Catalogues
from core.store import RunStore
from scenarios.events.create import CreateEvent, FreeRooms
from scenarios.events.manage import CancelEvent, CountRegistrations, ListEvents, OpenRegistration
from scenarios.events.site import EventDesk
from scenarios.events.unsupported import NoEvents

__all__ = ["event_scenarios"]


def event_scenarios(
    desk: EventDesk | None,
    *,
    catalogues: Catalogues,
    runs: RunStore,
    free_rooms: FreeRooms | None = None,
) -> list[BaseScenario]:
    if desk is None:
        return [NoEvents()]
    return [
        CreateEvent(desk=desk, catalogues=catalogues, free_rooms=free_rooms),
        ListEvents(desk=desk, runs=runs),
        OpenRegistration(desk=desk, runs=runs),
        CountRegistrations(desk=desk, runs=runs),
        CancelEvent(desk=desk, runs=runs),
    ]
