"""The portal's own error hierarchy (the portal is standalone: it never imports ``core``).

PortalAppError
├── BookingRejected      a booking request broke a rule or hit a taken slot
├── UnknownObject        a building, room or booking that does not exist
└── QuirkConfigError     a bad ``/_test/quirks`` payload
"""

from __future__ import annotations

__all__ = ["BookingRejected", "PortalAppError", "QuirkConfigError", "UnknownObject"]


class PortalAppError(Exception):
    """Base class for every error the portal raises on purpose."""


class BookingRejected(PortalAppError):
    """A booking was refused; ``code`` is stable for machines, ``message`` is Russian for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class UnknownObject(PortalAppError):
    """A building, room or booking id that does not exist."""


class QuirkConfigError(PortalAppError):
    """A chaos/quirk setting that cannot be applied."""
