"""The events job: organising the club's events on an event site (issue 30).

``EventSystem`` is the port the events scenarios speak to; ``Event`` what it answers
in; every failure is an ``EventError``.
"""

from scenarios.events.errors import (
    EventError,
    EventLeftBehind,
    EventNotFound,
    EventOutcomeUnknown,
    EventRejected,
    EventsNotAllowed,
    EventsUnavailable,
    RoomNotBooked,
    RoomTaken,
)
from scenarios.events.models import Event
from scenarios.events.port import EventSystem

__all__ = [
    "Event",
    "EventError",
    "EventLeftBehind",
    "EventNotFound",
    "EventOutcomeUnknown",
    "EventRejected",
    "EventSystem",
    "EventsNotAllowed",
    "EventsUnavailable",
    "RoomNotBooked",
    "RoomTaken",
]
