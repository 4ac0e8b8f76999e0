"""What an event system adapter raises; every class is an :class:`EventError`.

    EventError (a core.errors.PortalError)
    ├── EventsUnavailable   5xx, timeouts, connection errors (after retries)
    │   └── EventOutcomeUnknown  a create whose answer was lost and that was not found
    ├── EventsNotAllowed    the account may not do this (create in the category, manage)
    ├── EventNotFound       no such event (or it was deleted)
    ├── RoomTaken           the room is not free at the event's time (nothing was made)
    └── EventRejected       the site refused the input (its message in ``message``)

Adapters translate their site's errors into these at the boundary; messages never
contain passwords.
"""

from __future__ import annotations

from core.errors import PortalError

__all__ = [
    "EventError",
    "EventNotFound",
    "EventOutcomeUnknown",
    "EventRejected",
    "EventsNotAllowed",
    "EventsUnavailable",
    "RoomTaken",
]


class EventError(PortalError):
    """Anything an event system refused or failed at."""


class EventsUnavailable(EventError):
    """The site did not answer properly; worth trying again later."""


class EventOutcomeUnknown(EventsUnavailable):
    """A create was sent, its answer lost, and the event not found by its mark: it may
    appear later. ``find_event`` before sending again."""


class EventsNotAllowed(EventError):
    """The account may not create events in the category, or manage this event."""


class EventNotFound(EventError):
    """No such event, or it was deleted."""


class RoomTaken(EventError):
    """The room is already booked at the event's time; no event was left behind."""


class EventRejected(EventError):
    """The site refused the event, registration or booking; ``message`` is its text."""
