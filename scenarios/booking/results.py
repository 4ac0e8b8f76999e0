"""What the steps of a booking run (``book_rooms``) return, checkpointed with the run: a
resumed run reads them back as they were."""

from __future__ import annotations

from pydantic import BaseModel

from core.site.models import Room
from scenarios.booking.alternatives import Placement

__all__ = ["Booked", "Found", "Verified"]


class Found(BaseModel):
    """``find``: the rooms to book and where; ``alts`` alternatives were chosen by then."""

    place: Placement
    rooms: list[Room]
    alts: int


class Booked(BaseModel):
    """``book``: the site's booking numbers, one per room."""

    numbers: list[str]
    place: Placement
    rooms: list[Room]


class Verified(BaseModel):
    verified: list[str]
