"""Every scenario the product registers, built from what they need."""

from __future__ import annotations

from core.assist.answerer import UnknownAnswerer
from core.planner import Reader
from core.scenario import BaseScenario
from core.site.catalogue import Catalogues
from core.store import RunStore
from scenarios.booking import BookRooms, CancelBooking, ListBookings, PortalWork, PreferenceStore
from scenarios.booking.free_rooms import FreeRoomsNearby
from scenarios.booking.owners import BookingOwners
from scenarios.booking.reminders import Reminders
from scenarios.booking.schedules.scenarios import (
    CancelSchedule,
    ListSchedules,
    ScheduleBooking,
    ScheduleStore,
)
from scenarios.booking.vocabulary import BookingReader
from scenarios.events.plugin import event_scenarios
from scenarios.events.site import EventDesk
from scenarios.events.unsupported import NoEvents
from scenarios.help import DeclineScenario, HelpScenario, Showcase, UnknownScenario

__all__ = ["all_scenarios", "readers"]


def all_scenarios(
    *,
    work: PortalWork,
    catalogues: Catalogues,
    preferences: PreferenceStore,
    runs: RunStore,
    answerer: UnknownAnswerer | None = None,
    schedules: ScheduleStore | None = None,
    events: EventDesk | None = None,
    reminders: Reminders | None = None,
) -> list[BaseScenario]:
    """The schedule scenarios are registered when a schedule store is given; the events
    job's when the site has events (``events``), else one that says it has none; a booking
    plans its reminder where ``reminders`` are given."""
    book = BookRooms(work=work, preferences=preferences, catalogues=catalogues, reminders=reminders)
    owners = BookingOwners(runs=runs, work=work)
    recurring: list[BaseScenario] = []
    if schedules is not None:
        recurring = [
            ScheduleBooking(store=schedules, catalogues=catalogues, booking=book),
            ListSchedules(store=schedules, catalogues=catalogues),
            CancelSchedule(store=schedules, catalogues=catalogues),
        ]
    free = FreeRoomsNearby(work)
    plugged = event_scenarios(events, catalogues=catalogues, runs=runs, free_rooms=free)
    jobs: list[BaseScenario] = [
        book,
        ListBookings(work=work, catalogues=catalogues, owners=owners),
        CancelBooking(work=work, catalogues=catalogues, owners=owners),
        *recurring,
        *plugged,
    ]
    showcase = Showcase(jobs)  # /help lists what each registered scenario offers
    return [
        *jobs,
        HelpScenario(showcase=showcase),
        DeclineScenario(),
        UnknownScenario(answerer=answerer, showcase=showcase),
    ]


def readers() -> list[Reader]:
    """Each job's reading of its commands (``recognise``), with nothing behind it, in the
    order ``all_scenarios`` registers the jobs: how the planner reads a command, for
    ``clubman parse``. A job reads a command the same whether the site can do it or not
    (a site that cannot says so)."""
    return [BookingReader(), NoEvents()]
