"""What the booking job says of its own features (the booking texts shared with the views
are still ``core.texts``)."""

from __future__ import annotations

from core.texts import Text

__all__ = ["Remind"]


class Remind:
    """Reminders of upcoming bookings («напоминать за 1 час» in /settings)."""

    UPCOMING = Text(
        "🔔 Напоминание: {when}, {place}: {rooms}.",
        "🔔 Reminder: {when}, {place}: {rooms}.",
    )
    TODAY = Text("сегодня {span}", "today {span}")
    ON_DAY = Text("{day} {span}", "{day} {span}")
