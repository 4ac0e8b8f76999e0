"""The events job's manifest: organising the club's events on a site that has them
(offered as ``EventDesk``); on one that has none, one scenario that says so politely."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from core.jobs import Job, JobManifest, JobParts
from scenarios.events.create import CreateEvent, FreeRooms
from scenarios.events.manage import CancelEvent, CountRegistrations, ListEvents, OpenRegistration
from scenarios.events.site import EventDesk
from scenarios.events.unsupported import NoEvents

__all__ = ["MANIFEST"]


@runtime_checkable
class _FreeRooms(FreeRooms, Protocol):
    """The free rooms another job offers (the booking job, where the site books rooms)."""


def _setup(parts: JobParts) -> Job:
    desk = parts.offers.find(EventDesk)
    if desk is None:
        return Job(scenarios=[NoEvents()])
    runs = parts.storage.runs
    free_rooms = parts.offers.find(_FreeRooms)  # type: ignore[type-abstract]  # mypy#4717
    return Job(
        scenarios=[
            CreateEvent(desk=desk, catalogues=parts.catalogues, free_rooms=free_rooms),
            ListEvents(desk=desk, runs=runs),
            OpenRegistration(desk=desk, runs=runs),
            CountRegistrations(desk=desk, runs=runs),
            CancelEvent(desk=desk, runs=runs),
        ]
    )


# After the booking job, whose free rooms it takes.
MANIFEST = JobManifest(name="events", order=20, setup=_setup, reader=NoEvents)
