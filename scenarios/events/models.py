"""What an event system's events are described in. Values only; no site knows about them."""

from __future__ import annotations

import re
from datetime import date, time

from pydantic import BaseModel, ConfigDict

__all__ = ["Event", "carries", "mark_of", "run_of"]


class Event(BaseModel):
    """One event in the club's category, as the site has it (times in the site's zone)."""

    model_config = ConfigDict(frozen=True)

    id: str  # the site's id of the event
    title: str
    day: date
    start: time
    end: time
    url: str = ""  # the event's page, for the answer
    description: str = ""  # where the run's mark is kept
    room_id: str | None = None  # the booked room's site id (``Room.id``), if any
    room: str = ""  # the room as the site names it, e.g. "7/7-701"
    booking_id: str | None = None  # the room booking linked to the event, if any
    # Made by the club's account (``None``: the site does not say). An event another
    # account made in a category the club shares is never the club's, whatever mark its
    # description carries.
    by_club: bool | None = None

    def carries(self, mark: str) -> bool:
        """The event was made for the run with this mark."""
        return carries(self.description, mark)


def mark_of(run_id: str) -> str:
    """What a run's event carries in its description."""
    return f"#{run_id}"


_MARK = re.compile(r"(?<![\w-])#([\w-]+)")


def run_of(text: str) -> str | None:
    """The run whose mark ``text`` carries, if it carries one."""
    found = _MARK.search(text)
    return found.group(1) if found else None


def carries(text: str, mark: str) -> bool:
    """``mark`` stands in ``text`` as a whole token (``#r1`` is not in ``#r12``)."""
    if not mark.strip():
        return False
    return re.search(rf"(?<![\w-]){re.escape(mark)}(?![\w-])", text) is not None
