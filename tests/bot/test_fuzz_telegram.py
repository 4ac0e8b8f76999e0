"""Fuzzing the text handler (issue 16): 10 000 generated texts, sent by 100 users through
the fake Telegram server to the real bot on the product's scenarios (an in-memory booking
system behind the port, so complete requests really book): no handler fails, nothing
ends in an apology, no task dies unseen, and every text is answered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
import structlog
from structlog.testing import capture_logs

from bot.factory import BotApp
from core.clock import ManualClock
from core.texts import Run, tr
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram, SimUser
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.fuzz_texts import generated
from tests.support.memory_site import MemorySite

pytestmark = pytest.mark.slow  # handed out first: tests/conftest.py
TEXTS = 10_000
USERS = 100
APOLOGIES = (tr(Run.APOLOGY, "ru"), tr(Run.APOLOGY, "en"))
BAD_EVENTS = ("bot.unexpected_error", "step.crashed")


def sendable(texts: list[str]) -> list[str]:
    """What a Telegram client can send: not blank, at most 4096 characters."""
    return [t[:4096] for t in texts if t.strip()]


@pytest.fixture
async def app(tg: FakeTelegram, storage: Storage, clock: ManualClock) -> AsyncIterator[BotApp]:
    async with product_bot(tg, storage, MemorySite(REFPORTAL_CATALOGUE), clock=clock) as running:
        yield running


async def answered(user: SimUser, text: str) -> None:
    """Send ``text`` and wait until the bot has said or changed something in reply."""
    await user.send(text)
    await user.wait_for_message(timeout=60)


async def test_ten_thousand_generated_texts_are_each_answered_and_none_fails(
    app: BotApp, tg: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    texts = sendable(generated(TEXTS))
    assert len(texts) >= 0.9 * TEXTS  # a few blank ones cannot be sent from a client
    users = [tg.user(5000 + n, f"user{n}", language_code="ru") for n in range(USERS)]
    caplog.set_level(logging.ERROR, logger="asyncio")

    async def chat(index: int, user: SimUser) -> None:
        for text in texts[index::USERS]:
            await answered(user, text)

    with capture_logs() as logs:
        await asyncio.gather(*(chat(i, u) for i, u in enumerate(users)))
        structlog.reset_defaults()

    said = [m.text or m.caption or "" for u in users for m in u.messages]
    assert not [s for s in said if s in APOLOGIES]
    assert not [e for e in logs if e["event"] in BAD_EVENTS], [
        e for e in logs if e["event"] in BAD_EVENTS
    ][:3]
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
