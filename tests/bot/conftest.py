"""Fixtures for the Telegram view: the fake Bot API server and an aiogram Bot on it; the
manual clock and the reference portal for the booking tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.testing import aiogram_bot
from tests.support.portal_fixtures import clock, portal_url  # noqa: F401 (fixtures)

TOKEN = "123456:TEST-TOKEN"


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram):  # type: ignore[no-untyped-def]
    async with aiogram_bot(tg) as opened:
        yield opened
