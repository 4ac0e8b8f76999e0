"""Every scenario the product registers, built from what they need."""

from __future__ import annotations

from core.assist.answerer import UnknownAnswerer
from scenarios.base import BaseScenario
from scenarios.booking import BookRooms, CancelBooking, ListBookings, PortalWork, PreferenceStore
from scenarios.help import HelpScenario, UnknownScenario

__all__ = ["all_scenarios"]


def all_scenarios(
    *, work: PortalWork, preferences: PreferenceStore, answerer: UnknownAnswerer | None = None
) -> list[BaseScenario]:
    return [
        BookRooms(work=work, preferences=preferences),
        ListBookings(work=work),
        CancelBooking(work=work),
        HelpScenario(),
        UnknownScenario(answerer=answerer),
    ]
