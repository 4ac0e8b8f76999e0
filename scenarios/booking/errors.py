"""The booking port's refusals: the site said no to a booking (both ``core.errors.PortalError``,
so a view shows them like any site failure)."""

from __future__ import annotations

from core.errors import PortalError

__all__ = ["BookingRejected", "SlotTaken"]


class _Refusal(PortalError):
    """A refusal with the portal's own message and, where known, its stable code."""

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.code = code


class SlotTaken(_Refusal):
    """The room is already booked at that time."""


class BookingRejected(_Refusal):
    """The booking broke a portal rule; ``message`` is the portal's text, ``code`` its code
    (``in_past``, ``too_long``, …; ``client_validation`` when the browser's form check refused
    it; ``unknown_room`` / ``unknown_building`` / ``not_found`` for things that do not exist)."""
