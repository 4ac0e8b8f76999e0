"""How early a schedule's date is booked: as ``SCHEDULER__LEAD_DAYS`` sets, or as far ahead
as the site lets its rooms be booked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.site.models import Catalogue
from scenarios.booking.settings import SchedulerSettings

__all__ = ["lead_for"]


def lead_for(settings: SchedulerSettings, catalogue: Catalogue, slots: Mapping[str, Any]) -> int:
    """The days before a date its booking is made: as set, or the site's horizon (the
    named rooms' own limit, when the schedule names some)."""
    if settings.lead_days is not None:
        return settings.lead_days
    return catalogue.horizon_for(slots.get("building"), slots.get("room") or ())
