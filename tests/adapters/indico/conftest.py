"""The session's Indico (``tests/conftest.py``) and one Chromium pool for the
package, and the whole product on it behind the real bot (``app``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext
from pydantic import SecretStr

from app.compose import open_core
from bot.factory import BotApp
from core.browser import BrowserPool
from core.output import OutputSink
from core.settings import BrowserSettings, PortalSettings, Settings
from core.views import CoreServices
from storage import Storage
from tests.adapters.indico.profile_harness import PROFILE
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram
from tests.support.indico_server import IndicoServer

TOKEN = "123456:TEST-TOKEN"


@pytest.fixture(scope="package")
def indico_server(indico_server: IndicoServer) -> Iterator[IndicoServer]:
    """The session's Indico, this package's bookings apart from other packages'."""
    with indico_server.seeded_only() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="package")
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=4) as opened:
        yield opened


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool) -> AsyncIterator[BrowserContext]:
    """A browser context of this test's own, from the package's browser."""
    async with pool.context() as ctx:
        yield ctx


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as fake:
        yield fake


@pytest.fixture
def kind() -> str:
    """How the bot drives Indico: its JSON API (``indico``), or its web pages by
    ``profiles/indico.yaml`` (``profile``, the generic adapter)."""
    return "indico"


@pytest.fixture
def admins() -> list[int]:
    """The club's administrators (``TELEGRAM__ADMINS``): none unless a test says so."""
    return []


@pytest.fixture
async def app(
    tg: FakeTelegram,
    storage: Storage,
    indico_server: IndicoServer,
    tmp_path: Path,
    kind: str,
    admins: list[int],
) -> AsyncIterator[BotApp]:
    """The bot as ``clubman run`` builds it for an Indico site, on the system clock."""
    # Every test starts with no live booking of the club (the server is shared).
    await asyncio.to_thread(indico_server.cancel_all, "club")
    club = indico_server.club

    def open_(
        settings: Settings, opened: Storage, sink: OutputSink
    ) -> AbstractAsyncContextManager[CoreServices]:
        configured = settings.model_copy(
            update={
                "portal": PortalSettings(
                    kind=kind,
                    profile=PROFILE if kind == "profile" else None,
                    url=indico_server.base_url,
                    username=club.username,
                    password=SecretStr(club.password),
                ),
                "browser": BrowserSettings(max_contexts=2),
                "telegram": settings.telegram.model_copy(update={"admins": admins}),
                "data_dir": tmp_path / "data",
            }
        )
        return open_core(configured, opened, sink)

    async with running_bot(tg, storage, core=open_) as running:
        yield running
