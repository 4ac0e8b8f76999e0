"""What an event system adapter raises; every class is an :class:`EventError`.

    EventError (a core.errors.PortalError)
    ├── EventsUnavailable   5xx, timeouts, connection errors (after retries)
    │   └── EventOutcomeUnknown  a create whose answer was lost and that was not found
    ├── EventsNotAllowed    the account may not do this (create in the category, manage)
    ├── EventNotFound       no such event (or it was deleted)
    ├── RoomTaken           the room is not free at the event's time (nothing was made)
    ├── RoomNotBooked       the new event's room could not be booked for another reason;
    │   │                   the event was deleted again (nothing was made)
    │   └── EventLeftBehind  ... and its delete failed: ``event`` is on the site, roomless
    └── EventRejected       the site refused the input (its message in ``message``)

Adapters translate their site's errors into these at the boundary; messages never
contain passwords.
"""

from __future__ import annotations

from core.errors import PortalError
from scenarios.events.models import Event

__all__ = [
    "EventError",
    "EventLeftBehind",
    "EventNotFound",
    "EventOutcomeUnknown",
    "EventRejected",
    "EventsNotAllowed",
    "EventsUnavailable",
    "RoomNotBooked",
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


class RoomNotBooked(EventError):
    """The new event's room could not be booked (not for being taken), so the event was
    deleted again. ``refusal``: the site's words when it refused; ``None`` when it failed."""

    def __init__(self, message: str, *, refusal: str | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class EventLeftBehind(RoomNotBooked):
    """The room could not be booked and the event could not be deleted either: ``event``
    stays on the site without its room, and the user must be told so."""

    def __init__(self, message: str, *, event: Event, refusal: str | None = None) -> None:
        super().__init__(message, refusal=refusal)
        self.event = event
