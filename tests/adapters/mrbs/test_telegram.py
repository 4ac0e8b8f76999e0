"""The whole product on a real MRBS 1.12.2: the real bot (aiogram polling the fake Bot API
server) on the app's own core with ``PORTAL__KIND=profile`` and ``profiles/mrbs.yaml``
(the catalogue read from MRBS with the club's account, real scenarios, real storage, real
Chromium), checked against MRBS's own tables, not through the adapter."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr

from app.compose import open_core
from bot.factory import BotApp
from core.output import OutputSink
from core.settings import BrowserSettings, PortalSettings, Settings
from core.texts import day_label
from core.views import CoreServices
from storage import Storage
from tests.adapters.mrbs.harness import PROFILE
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram
from tests.sites.mrbs import MrbsServer

TOKEN = "123456:TEST-TOKEN"
WAIT = 120.0  # generous: Chromium and MRBS on a busy two-core machine
# «в <день недели>» as people write it (accusative, «во вторник»).
ON_WEEKDAY = ("в понедельник", "во вторник", "в среду", "в четверг", "в пятницу",
              "в субботу", "в воскресенье")  # fmt: skip


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as fake:
        yield fake


@pytest.fixture
async def app(
    tg: FakeTelegram, storage: Storage, mrbs: MrbsServer, tmp_path: Path
) -> AsyncIterator[BotApp]:
    """The bot as ``clubman run`` builds it for an MRBS site, on the system clock."""
    club = mrbs.club

    def open_(
        settings: Settings, opened: Storage, sink: OutputSink
    ) -> AbstractAsyncContextManager[CoreServices]:
        configured = settings.model_copy(
            update={
                "portal": PortalSettings(
                    kind="profile",
                    profile=PROFILE,
                    url=mrbs.base_url,
                    username=club.username,
                    password=SecretStr(club.password),
                ),  # fmt: skip
                "browser": BrowserSettings(max_contexts=2),
                "data_dir": tmp_path / "data",
            }
        )
        return open_core(configured, opened, sink)

    async with running_bot(tg, storage, core=open_) as running:
        yield running


async def test_two_adjacent_rooms_booked_in_mrbs(
    app: BotApp, tg: FakeTelegram, mrbs: MrbsServer
) -> None:
    day = mrbs.today() + timedelta(days=5)  # past the seed's days
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(
        f"забронируй 2 аудитории рядом в главном корпусе {ON_WEEKDAY[day.weekday()]} с 18 до 20"
    )
    done = await user.wait_for_message(lambda m: "Забронированы" in (m.text or ""), timeout=WAIT)
    booked = [b for b in await asyncio.to_thread(mrbs.bookings, mrbs.club.username)]
    assert len(booked) == 2, booked
    assert {(b.start.date(), f"{b.start:%H:%M}", f"{b.end:%H:%M}") for b in booked} == {
        (day, "18:00", "20:00")
    }
    rooms = sorted(int(b.room) for b in booked)
    assert rooms[1] == rooms[0] + 1 and {b.area for b in booked} == {"Главный корпус"}
    assert len({b.name for b in booked}) == 1  # one run's purpose, its mark in it
    assert done.text == (
        f"Забронированы {rooms[0]}, {rooms[1]} (Главный корпус, {day_label(day, 'ru')}, "
        "18:00–20:00)"
    )
