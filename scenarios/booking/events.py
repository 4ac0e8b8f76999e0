"""What the booking job tells the event bus beyond a run's steps (stored with the run's
timeline like every event): bookings gone from the site, which their reminders drop."""

from __future__ import annotations

from core.events import BaseEvent

__all__ = ["BookingsCancelled", "BookingsGoneFromSite"]


class BookingsCancelled(BaseEvent):
    """Bookings a run cancelled on the site (as soon as they are gone, even if the run
    then fails on others): their reminders are dropped."""

    kind = "bookings.cancelled"
    numbers: list[str]


class BookingsGoneFromSite(BaseEvent):
    """Bookings a run made that were no longer on the site when their reminder was due
    (cancelled there, not through the bot): the reminder leaves them out."""

    kind = "bookings.gone"
    numbers: list[str]
