"""Every scenario the product registers, built from what they need."""

from __future__ import annotations

from core.assist.answerer import UnknownAnswerer
from core.booking.catalogue import Catalogues
from core.scenario import BaseScenario
from core.store import RunStore
from scenarios.booking import BookRooms, CancelBooking, ListBookings, PortalWork, PreferenceStore
from scenarios.booking.owners import BookingOwners
from scenarios.help import DeclineScenario, HelpScenario, UnknownScenario
from scenarios.schedules import (
    CancelSchedule,
    ListSchedules,
    ScheduleBooking,
    ScheduleStore,
)

__all__ = ["all_scenarios"]


def all_scenarios(
    *,
    work: PortalWork,
    catalogues: Catalogues,
    preferences: PreferenceStore,
    runs: RunStore,
    answerer: UnknownAnswerer | None = None,
    schedules: ScheduleStore | None = None,
) -> list[BaseScenario]:
    """The schedule scenarios are registered when a schedule store is given."""
    book = BookRooms(work=work, preferences=preferences, catalogues=catalogues)
    owners = BookingOwners(runs=runs, work=work)
    recurring: list[BaseScenario] = []
    if schedules is not None:
        recurring = [
            ScheduleBooking(store=schedules, catalogues=catalogues, booking=book),
            ListSchedules(store=schedules, catalogues=catalogues),
            CancelSchedule(store=schedules, catalogues=catalogues),
        ]
    return [
        book,
        ListBookings(work=work, catalogues=catalogues, owners=owners),
        CancelBooking(work=work, catalogues=catalogues, owners=owners),
        *recurring,
        HelpScenario(),
        DeclineScenario(),
        UnknownScenario(answerer=answerer),
    ]
