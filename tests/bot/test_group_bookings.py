"""Bookings belong to whoever asked for them (issue 26): in a group on the club's account,
a member lists and cancels only the bookings their own requests made; the group's
administrator lists and cancels anyone's, and the bookings made outside the bot. Through
the fake Telegram server to the real bot on the product's scenarios and real storage."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bot.factory import BotApp
from core.clock import ManualClock
from scenarios.booking.models import Booking
from storage import Storage
from tests.bot.support import product_bot
from tests.bot.test_group_chat import WAIT, has, members
from tests.fakes.telegram import FakeTelegram, SimUser
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.memory_site import MemorySite

THURSDAY = dt.date(2026, 11, 26)
NOT_YOURS = "эту бронь сделал другой участник"


@pytest.fixture
def site() -> MemorySite:
    return MemorySite(REFPORTAL_CATALOGUE)


@pytest.fixture
async def app(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, site: MemorySite
) -> AsyncIterator[BotApp]:
    async with product_bot(tg, storage, site, clock=clock) as running:
        yield running


def live(site: MemorySite) -> set[str]:
    return {b.room for b in site.bookings if b.is_live}


async def listed(user: SimUser) -> str:
    await user.send("/bookings")
    shown = await user.wait_for_message(
        lambda m: m.from_bot and any(t in (m.text or "") for t in ("Ваши брони", "броней нет")),
        timeout=WAIT,
    )
    return shown.text or ""


async def cancels(user: SimUser, *, confirm: bool) -> str:
    """``user`` asks to cancel Thursday's booking; what the bot ends with."""
    await user.send("отмени бронь в четверг")
    if confirm:
        question = await user.wait_for_message(has("Отменить"), timeout=WAIT)
        await user.wait_for_answer(await user.tap("Да", message_id=question.message_id))
    ended = await user.wait_for_message(
        lambda m: any(t in (m.text or "") for t in ("Отменена бронь", NOT_YOURS)), timeout=WAIT
    )
    return ended.text or ""


async def test_members_list_and_cancel_only_their_own_bookings(
    app: BotApp, tg: FakeTelegram, site: MemorySite
) -> None:
    anna, boris, vera = members(tg)
    await anna.send("забронируй 205 в Чайковского в четверг с 18 до 20")
    await anna.wait_for_message(has("Забронирована 205"), timeout=WAIT)
    # Booked on the site by hand, with the club's account: no request of the bot's made it.
    site.bookings.append(
        Booking(number="outside-1", building="main", room="301", day=THURSDAY,
                start=dt.time(10), end=dt.time(12), purpose="Лекция")
    )  # fmt: skip

    assert "205" in await listed(anna) and "301" not in await listed(anna)
    seen_by_boris = await listed(boris)
    assert "Активных броней нет" in seen_by_boris and "205" not in seen_by_boris
    everything = await listed(vera)
    assert "205" in everything and "301" in everything

    # Борис cannot cancel Анна's booking by a sentence: refused, nothing asked, kept.
    assert NOT_YOURS in await cancels(boris, confirm=False)
    assert live(site) == {"205", "301"}

    assert "Отменена бронь: 205" in await cancels(anna, confirm=True)
    assert live(site) == {"301"}
    # The booking made outside the bot is the administrators': Вера cancels it.
    assert NOT_YOURS in await cancels(anna, confirm=False)
    assert "Отменена бронь: 301" in await cancels(vera, confirm=True)
    assert live(site) == set()


async def test_an_administrator_cancels_a_members_booking(
    app: BotApp, tg: FakeTelegram, site: MemorySite
) -> None:
    anna, _, vera = members(tg)
    await anna.send("забронируй 205 в Чайковского в четверг с 18 до 20")
    await anna.wait_for_message(has("Забронирована 205"), timeout=WAIT)
    assert "Отменена бронь: 205" in await cancels(vera, confirm=True)
    assert live(site) == set()
