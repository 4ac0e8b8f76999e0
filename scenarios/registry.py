"""Every scenario the product registers, built from what they need."""

from __future__ import annotations

from core.assist.answerer import UnknownAnswerer
from core.scenario import BaseScenario
from scenarios.booking import BookRooms, CancelBooking, ListBookings, PortalWork, PreferenceStore
from scenarios.help import HelpScenario, UnknownScenario
from scenarios.schedules import (
    CancelSchedule,
    ListSchedules,
    ScheduleBooking,
    ScheduleStore,
    ScheduleTimer,
)

__all__ = ["all_scenarios"]


def all_scenarios(
    *,
    work: PortalWork,
    preferences: PreferenceStore,
    answerer: UnknownAnswerer | None = None,
    schedules: ScheduleStore | None = None,
    timer: ScheduleTimer | None = None,
) -> list[BaseScenario]:
    """The schedule scenarios are registered when a schedule store and timer are given."""
    book = BookRooms(work=work, preferences=preferences)
    recurring: list[BaseScenario] = []
    if schedules is not None and timer is not None:
        recurring = [
            ScheduleBooking(store=schedules, timer=timer, booking=book),
            ListSchedules(store=schedules, timer=timer),
            CancelSchedule(store=schedules, timer=timer),
        ]
    return [
        book,
        ListBookings(work=work),
        CancelBooking(work=work),
        *recurring,
        HelpScenario(),
        UnknownScenario(answerer=answerer),
    ]
