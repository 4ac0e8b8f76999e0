"""The calendar offer a finished run shows in the views."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Calendar"]


class Calendar:
    """Bookings in the user's calendar (an ``.ics`` file)."""

    TITLE = Text("Аудитория {room}", "Room {room}")
    OFFER = Text("📅 В календарь", "📅 Add to calendar")
    FILE = Text(
        "Файл для календаря: откройте его, и брони появятся там.",
        "Open this file to add the bookings to your calendar.",
    )
