"""Indico's events as the events scenarios' port (``scenarios.events.EventSystem``):
``IndicoEvents`` with its Indico errors translated into the port's at this boundary, so
a scenario never sees an Indico class."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, time

from adapters.indico.errors import (
    EventLeft,
    EventUndone,
    IndicoError,
    Missing,
    NotAllowed,
    SessionLost,
    SlotOccupied,
    SystemUnavailable,
)
from adapters.indico.events import IndicoEvents
from scenarios.events.errors import (
    EventLeftBehind,
    EventNotFound,
    EventRejected,
    EventsNotAllowed,
    EventsUnavailable,
    RoomNotBooked,
    RoomTaken,
)
from scenarios.events.models import Event

__all__ = ["IndicoEventSystem", "translated"]


@asynccontextmanager
async def translated() -> AsyncIterator[None]:
    """Indico's errors raised inside, as the events port's."""
    try:
        yield
    except EventLeft as exc:
        raise EventLeftBehind(exc.message, event=exc.event, refusal=exc.refusal) from exc
    except EventUndone as exc:
        raise RoomNotBooked(exc.message, refusal=exc.refusal) from exc
    except SlotOccupied as exc:
        raise RoomTaken(exc.message) from exc
    except NotAllowed as exc:
        raise EventsNotAllowed(exc.message) from exc
    except Missing as exc:
        raise EventNotFound(exc.message) from exc
    except (SystemUnavailable, SessionLost) as exc:
        raise EventsUnavailable(exc.message) from exc
    except IndicoError as exc:  # a form sent back, a booking refused: the site's words
        raise EventRejected(exc.message) from exc


class IndicoEventSystem:
    """The club's events on Indico, as the port has them."""

    def __init__(self, events: IndicoEvents) -> None:
        self._events = events

    async def create_event(
        self, *, title: str, day: date, start: time, end: time, room_id: str | None, mark: str
    ) -> Event:
        async with translated():
            return await self._events.create_event(
                title=title, day=day, start=start, end=end, room_id=room_id, mark=mark
            )

    async def find_event(self, mark: str) -> Event | None:
        async with translated():
            return await self._events.find_event(mark)

    async def upcoming_events(self) -> list[Event]:
        async with translated():
            return await self._events.upcoming_events()

    async def open_registration(self, event_id: str, limit: int | None) -> None:
        async with translated():
            await self._events.open_registration(event_id, limit)

    async def registrations(self, event_id: str) -> int:
        async with translated():
            return await self._events.registrations(event_id)

    async def delete_event(self, event_id: str) -> None:
        async with translated():
            await self._events.delete_event(event_id)
