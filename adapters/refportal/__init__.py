"""Our reference booking portal (``portal/``), as a ``scenarios.booking.port.BookingSystem``.

``RefPortal`` opens ``PortalSession``s; only ``pages/`` knows the portal's labels and
roles (no CSS classes or ids, so the portal's layout variants keep working).
"""

from __future__ import annotations

from adapters.refportal.session import PortalSession
from adapters.refportal.system import PROFILE, RefPortal
from core.browser.retry import RetryPolicy

__all__ = ["PROFILE", "PortalSession", "RefPortal", "RetryPolicy"]
