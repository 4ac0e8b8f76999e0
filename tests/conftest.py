"""Shared fixtures: real Redis and SecantusDB servers, a clean environment per test."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from app.runtime import loop_factory
from storage import Storage, open_storage
from tests.sites.mrbs import VARIANT, MissingPrerequisite, MrbsServer, running_mrbs
from tests.support.fresh_storage import fresh_storage
from tests.support.indico_server import IndicoServer, running_indico_server
from tests.support.servers import running_redis, running_secantus

# Variables our Settings read: a developer's shell or .env must not leak into tests.
_APP_ENV_PREFIXES = ("TELEGRAM__", "PORTAL__", "BROWSER__", "RUNNER__", "LLM__", "SCHEDULER__")
_APP_ENV_NAMES = ("DATA_DIR", "LOG_LEVEL", "TIMEZONE")


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> dict[str, Callable[[], asyncio.AbstractEventLoop]]:
    """Async tests run on the event loop `clubman run` runs on (uvloop where installed)."""
    return {"loop": loop_factory()}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules marked ``slow`` (whole modules: a module split in two would set up its
    fixtures twice) run first. `make test` hands whole files to two processes in this
    order (``--no-loadscope-reorder``); pytest-xdist's own order, most tests first, left
    the one-test Telegram fuzz file, 4-7 min, to run last while the other process idled."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _clean_app_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith(_APP_ENV_PREFIXES) or name in _APP_ENV_NAMES:
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray .env from the checkout
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server: ``REDIS_URL`` if given, else one started on a free port."""
    given = os.environ.get("REDIS_URL")
    if given:
        yield _own_database(given, os.environ.get("PYTEST_XDIST_WORKER", "gw0"))
        return
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="session")
def indico_server() -> Iterator[IndicoServer]:
    """One Indico + PostgreSQL + redis, seeded, for each test process: it takes ~25 s to start.
    A package that books for other people leaves it as seeded when it is done."""
    with running_indico_server() as server:
        yield server


@pytest.fixture(scope="session")
def mrbs_server() -> Iterator[MrbsServer]:
    """One MRBS 1.12.2 + PostgreSQL, seeded, for each test process (tests/sites/mrbs.py):
    ~4 s to start. A package that books leaves it as seeded when it is done."""
    try:
        with running_mrbs() as server:
            yield server
    except MissingPrerequisite as exc:
        pytest.fail(f"MRBS cannot run here: {exc}")


@pytest.fixture(scope="session")
def mrbs_variant_server() -> Iterator[MrbsServer]:
    """The same MRBS set up as a site nobody tuned the learner for (``VARIANT``: English,
    London time, 15-minute slots, other names, an area in periods mode), seeded; a server
    of its own, ~4 s to start."""
    try:
        with running_mrbs(config=VARIANT) as server:
            yield server
    except MissingPrerequisite as exc:
        pytest.fail(f"MRBS cannot run here: {exc}")


@pytest.fixture(scope="session")
def secantus_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_secantus(tmp_path_factory.mktemp("secantus")) as uri:
        yield uri


def _mongo_backends() -> list[str]:
    return ["secantus", "mongodb"] if os.environ.get("MONGODB_URI") else ["secantus"]


@pytest.fixture(params=_mongo_backends())
def mongo_uri(request: pytest.FixtureRequest) -> str:
    """Every MongoDB backend we have: SecantusDB always, a real MongoDB when MONGODB_URI is set."""
    if request.param == "mongodb":
        return os.environ["MONGODB_URI"]
    uri: str = request.getfixturevalue("secantus_uri")
    return uri


@pytest.fixture
async def storage(mongo_uri: str, redis_url: str, tmp_path: Path) -> AsyncIterator[Storage]:
    """Storage on a fresh database per test; Redis flushed first."""
    async with fresh_storage(mongo_uri, redis_url, tmp_path) as opened:
        yield opened


@pytest.fixture
async def shared(
    secantus_uri: str, redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[Storage, str]]:
    """The storage of a crash test: both bot processes open it by its database's name, and
    the test reads it."""
    db = f"crash_{uuid.uuid4().hex[:10]}"
    async with open_storage(
        mongodb_uri=secantus_uri, redis_url=redis_url, data_dir=tmp_path, db_name=db
    ) as storage:
        await storage.redis.flushdb()
        yield storage, db


def _own_database(url: str, worker: str) -> str:
    """The tests flush their Redis database: each test process takes its own, the URL's
    for the first and the next ones for the others."""
    parts = urlsplit(url)
    first = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{first + int(worker.removeprefix('gw'))}"))
