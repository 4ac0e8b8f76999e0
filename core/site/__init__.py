"""What the engine knows of a site, whatever job drives it.

    models.py     the site's catalogue (Building, Room, Rules) and what a page shows
                  (PageSummary)
    errors.py     what an adapter of any site raises (all ``core.errors.PortalError``)
    retry.py      PortalRetry: a transient failure a session absorbed, told to the run
    profile.py    local words for a site's buildings («чайка», «гк»), from a TOML file
    catalogue.py  the current catalogue: read from the site, cached, refreshed daily

A job's port lives with the job (the booking job's ``BookingSystem``:
``scenarios/booking/port.py``); adapters live in ``adapters/<kind>/``, and
``tests/adapters/contract.py`` is the suite every booking adapter passes unchanged.
"""

from __future__ import annotations

from core.site.errors import (
    LockedOut,
    LoginFailed,
    OutcomeUnconfirmed,
    OutcomeUnknown,
    PortalUnavailable,
    SessionExpired,
    UnexpectedPage,
)
from core.site.models import Building, Catalogue, PageSummary, Room, Rules
from core.site.retry import OnRetry, PortalRetry

__all__ = [
    "Building",
    "Catalogue",
    "LockedOut",
    "LoginFailed",
    "OnRetry",
    "OutcomeUnconfirmed",
    "OutcomeUnknown",
    "PageSummary",
    "PortalRetry",
    "PortalUnavailable",
    "Room",
    "Rules",
    "SessionExpired",
    "UnexpectedPage",
]
