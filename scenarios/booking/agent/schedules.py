"""The schedules as the agent tools (the MCP server) show them: ``ports.ScheduleDesk`` on
the schedule book."""

from __future__ import annotations

from typing import Any

from core.commands import Lang
from core.site.catalogue import Catalogues
from scenarios.booking.agent.models import ScheduleInfo
from scenarios.booking.schedules.book import ScheduleBook
from scenarios.booking.schedules.entry import ScheduleEntry

__all__ = ["AgentSchedules"]


class AgentSchedules:
    def __init__(self, book: ScheduleBook, catalogues: Catalogues) -> None:
        self._book = book
        self._catalogues = catalogues

    async def of_owner(self, user_id: int, lang: Lang) -> list[ScheduleInfo]:
        return [self._info(entry, lang) for entry in await self._book.of_owner(user_id)]

    async def create(
        self,
        *,
        owner_id: int,
        chat_id: int,
        weekdays: list[str],
        slots: dict[str, Any],
        timezone: str,
        lang: Lang,
    ) -> ScheduleInfo:
        entry = await self._book.create(
            owner_id=owner_id, chat_id=chat_id, weekdays=weekdays, slots=slots, timezone=timezone
        )
        return self._info(entry, lang)

    def _info(self, entry: ScheduleEntry, lang: Lang) -> ScheduleInfo:
        slots = entry.slots
        return ScheduleInfo(
            id=entry.id, weekdays=entry.weekdays, start=slots.get("start"), end=slots.get("end"),
            building=slots.get("building"), rooms=int(slots.get("rooms") or 1),
            adjacent=bool(slots.get("adjacent")), room_numbers=slots.get("room"),
            status=entry.status, label=entry.label(lang, self._catalogues.current),
        )  # fmt: skip
