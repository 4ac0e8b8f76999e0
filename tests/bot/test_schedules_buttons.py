"""Recurring bookings managed from Telegram buttons: create, then pause, resume and delete
from the /schedules list, through the real bot stack and the fake Bot API server."""

from __future__ import annotations

import asyncio

from scenarios.booking.records import Schedule, ScheduleStatus
from storage import Storage
from tests.bot.support import running_bot, schedules_core
from tests.fakes.telegram import FakeTelegram

schedule_core = schedules_core()


async def test_create_pause_resume_delete_by_tapping(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(7, "Анна", language_code="ru")
    async with running_bot(tg, storage, core=schedule_core):
        await user.send("каждый четверг бронируй 405 в главном с 18 до 20")
        confirm = await user.wait_for_message(
            lambda m: (m.text or "").startswith("Создать регулярную бронь")
        )
        assert confirm.labels[:2] == ["Создать", "Отмена"]
        await user.tap("Создать")
        schedules = await _until_created(storage, 7)
        assert len(schedules) == 1 and schedules[0].status is ScheduleStatus.ACTIVE

        await user.send("/schedules")
        listing = await user.wait_for_message(lambda m: any("Пауза" in lb for lb in m.labels))
        await user.tap(next(lb for lb in listing.labels if "Пауза" in lb))
        resumed = await user.wait_for_message(lambda m: any("Возобновить" in lb for lb in m.labels))
        assert (await _live(storage, 7))[0].status is ScheduleStatus.PAUSED

        await user.tap(next(lb for lb in resumed.labels if "Возобновить" in lb))
        again = await user.wait_for_message(lambda m: any("Пауза" in lb for lb in m.labels))
        assert (await _live(storage, 7))[0].status is ScheduleStatus.ACTIVE

        await user.tap(next(lb for lb in again.labels if "Удалить" in lb))
        await user.wait_for_message(lambda m: "Регулярных броней нет" in (m.text or ""))
    assert await _live(storage, 7) == []


async def _until_created(storage: Storage, owner: int) -> list[Schedule]:
    for _ in range(200):
        if found := await _live(storage, owner):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError("no schedule was created")


async def _live(storage: Storage, owner: int) -> list[Schedule]:
    return list(await storage.schedules.for_owner(owner))
