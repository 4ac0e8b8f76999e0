"""Booking through Telegram end to end on a site known only by its profile: the real bot
on the real core, real storage and real Chromium against the legacy-style site
(``portal/legacy``) driven by the profile adapter with ``profiles/legacy.yaml``; the
catalogue is read from the site through the profile, as the product reads it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from adapters.profile import ProfileSystem, load_site_profile
from bot.factory import BotApp
from core.browser import BrowserPool
from core.clock import ManualClock
from portal.legacy.server import running_legacy
from scenarios.booking import PortalAccount, read_catalogue
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram, StoredMessage

PROFILE = Path(__file__).parents[2] / "profiles" / "legacy.yaml"
WAIT = 90.0  # generous: Chromium on a busy two-core machine


@pytest.fixture
async def legacy_url(clock: ManualClock) -> AsyncIterator[str]:
    async with running_legacy(test_api=True, seed=1, clock=clock.now) as site:
        yield site.url


async def _bookings(url: str) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/bookings") as got:
        rows: list[dict[str, Any]] = await got.json()
    return [r for r in rows if r["user"] == "club" and r["status"] == "active"]


@pytest.fixture
async def app(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, legacy_url: str
) -> AsyncIterator[BotApp]:
    system = ProfileSystem(legacy_url, load_site_profile(PROFILE))
    account = PortalAccount(username="club", password=SecretStr("club-demo"))
    async with BrowserPool(max_contexts=1) as pool:
        catalogue = await read_catalogue(pool, system, account)
    async with product_bot(tg, storage, system, clock=clock, catalogue=catalogue) as running:
        yield running


def has(text: str) -> Any:
    return lambda m: text in (m.text or "")


async def test_three_adjacent_rooms_booked_listed_and_one_cancelled(
    app: BotApp, tg: FakeTelegram, legacy_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send("забронируй 3 аудитории рядом в главном в четверг с 18 до 20")
    done: StoredMessage = await user.wait_for_message(has("Забронированы"), timeout=WAIT)

    booked = await _bookings(legacy_url)
    numbers = sorted(int(b["room_number"]) for b in booked)
    assert len(numbers) == 3 and numbers == list(range(numbers[0], numbers[0] + 3))
    assert {(b["date"], b["start"], b["end"]) for b in booked} == {("2026-11-26", "18:00", "20:00")}
    rooms = ", ".join(str(n) for n in numbers)
    assert done.text == f"Забронированы {rooms} (Главный корпус, чт 26.11, 18:00–20:00)"

    await user.send("мои брони")
    listing = await user.wait_for_message(has("Ваши брони:"), timeout=WAIT)
    assert listing.text == f"Ваши брони:\n• Чт 26.11 18:00–20:00, Главный корпус: {rooms}"

    first = numbers[0]
    await user.send(f"отмени бронь {first} в четверг")
    confirm = await user.wait_for_message(has(f"Отменить {first}"), timeout=WAIT)
    assert confirm.text == f"Отменить {first}, Главный корпус, чт 26.11 18:00–20:00?"
    await user.wait_for_answer(await user.tap("Да"))
    cancelled = await user.wait_for_message(has("Отменена бронь"), timeout=WAIT)
    assert cancelled.text == f"Отменена бронь: {first}, Главный корпус, чт 26.11 18:00–20:00."
    left = sorted(int(b["room_number"]) for b in await _bookings(legacy_url))
    assert left == numbers[1:]
