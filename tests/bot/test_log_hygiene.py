"""Issue 16: at INFO the logs of a whole booking hold neither what the user wrote nor the
portal username; at DEBUG the text is there (for a developer chasing a bug)."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator

import pytest
import structlog
from pydantic import SecretStr

from core.clock import ManualClock
from core.logging import log_processors
from scenarios.booking import PortalAccount
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram
from tests.support.refportal import refportal_system

COMMAND = "забронируй 205 в Чайковского в четверг с 18 до 20"
USERNAME = "petrova"  # a portal account whose name appears nowhere else
WAIT = 90.0  # Chromium on a busy two-core machine


def rendered_logs(level: str) -> Iterator[io.StringIO]:
    """structlog as ``configure_logging(level)`` sets it up, rendering into a buffer."""
    out = io.StringIO()
    structlog.configure(
        processors=log_processors(level),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )
    try:
        yield out
    finally:
        structlog.reset_defaults()


@pytest.fixture
def info_logs() -> Iterator[io.StringIO]:
    yield from rendered_logs("INFO")


@pytest.fixture
async def portal_bot(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> AsyncIterator[None]:
    account = PortalAccount(username=USERNAME, password=SecretStr("petrova-demo"))
    system = refportal_system(portal_url)
    async with product_bot(tg, storage, system, clock=clock, account=account, max_contexts=1):
        yield


async def test_info_logs_of_a_booking_hold_no_message_text_and_no_username(
    info_logs: io.StringIO, portal_bot: None, tg: FakeTelegram
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(COMMAND)
    await user.wait_for_message(lambda m: "Забронирована 205" in (m.text or ""), timeout=WAIT)

    logged = info_logs.getvalue()
    assert "command.received" in logged and "portal.login" in logged  # the logs were kept
    assert "text_len=" in logged  # the event says a text came, not what it said
    assert COMMAND not in logged and "Чайковского в четверг" not in logged
    assert USERNAME not in logged
