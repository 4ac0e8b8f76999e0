"""The ``EventSystem`` port: the seam between the events scenarios and an event site.

The events scenarios (create, list, open registration, count, cancel) speak only to
this Protocol; a site that has events implements it in its adapter package
(``adapters/indico/events.py`` for Indico), logged in as the club's account, in the
club's category. Like ``BookingSession.book``, ``create_event`` keeps the run's mark
with what it makes (the event's description) and looks before it creates, so a retried
create never makes a second event. What reaches the caller is a model from
``scenarios.events.models`` or an error from ``scenarios.events.errors``.
"""

from __future__ import annotations

from datetime import date, time
from typing import Protocol

from scenarios.events.models import Event

__all__ = ["EventSystem"]


class EventSystem(Protocol):
    """The club's events on one site, as one logged-in account. Not safe for concurrent use."""

    async def create_event(
        self,
        *,
        title: str,
        day: date,
        start: time,
        end: time,
        room_id: str | None,
        mark: str,
    ) -> Event:
        """An event in the club's category with ``mark`` in its description; with
        ``room_id``, that room booked for the event through the site's booking linked to
        the event. An event already carrying ``mark`` is completed (its room booked when
        it is not yet) and returned, never made twice. A room that is taken is
        ``RoomTaken``, one not booked for any other reason ``RoomNotBooked``: both leave
        no event behind; when the event cannot be deleted either, ``EventLeftBehind``
        names it."""
        ...

    async def find_event(self, mark: str) -> Event | None:
        """The club's event whose description carries ``mark``, if there is one."""
        ...

    async def upcoming_events(self) -> list[Event]:
        """The events in the club's category from today on, earliest first, each with
        ``by_club`` when the site says who made it (the category may be shared)."""
        ...

    async def open_registration(self, event_id: str, limit: int | None) -> None:
        """The event's registration form (made when missing) opened, with at most
        ``limit`` registrations (``None``: no limit). Repeating it changes nothing."""
        ...

    async def registrations(self, event_id: str) -> int:
        """How many people are registered (active registrations)."""
        ...

    async def delete_event(self, event_id: str) -> None:
        """Delete the event; its linked room booking is cancelled with it, freeing the
        room. An event that is not there is ``EventNotFound``."""
        ...
