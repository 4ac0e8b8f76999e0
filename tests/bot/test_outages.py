"""Storage outages mid-run, through the fake Telegram server and the real bot on the
reference portal: Redis, or SecantusDB, is stopped for 10 s while a booking runs and
then started again on the same port. The run pauses, finishes by itself when storage is
back (no restart), and the user reads one notice and one result, in Russian."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.factory import BotApp
from core.clock import ManualClock
from core.texts import Run, tr
from storage import Storage, open_storage
from storage.local_mongo import secantus_uri
from storage.process import free_port
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram
from tests.support.portal import portal_bookings, set_quirks
from tests.support.refportal import refportal_system
from tests.support.servers import Restartable, redis_argv, restartable, secantus_argv

COMMAND = "забронируй 3 аудитории рядом в главном в этот четверг с 18 до 20"
WAIT = 120.0
OUTAGE = 10.0
NOTICE = tr(Run.PAUSED_OUTAGE, "ru", title="Бронирование аудиторий")


class Servers:
    def __init__(self, redis: Restartable, redis_url: str, mongo: Restartable, mongo_uri: str):
        self.by_name = {"redis": redis, "secantus": mongo}
        self.redis_url = redis_url
        self.mongo_uri = mongo_uri


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    """Our own Redis and SecantusDB (keeping their data across a stop), for this test alone."""
    redis_port, mongo_port = free_port(), free_port()
    data = tmp_path / "secantus-data"
    with (
        restartable(
            redis_argv(tmp_path, redis_port, keep_data=True), redis_port, tmp_path / "redis.log"
        ) as redis,
        restartable(
            secantus_argv(mongo_port, str(data)), mongo_port, tmp_path / "secantus.log"
        ) as mongo,
    ):
        yield Servers(redis, f"redis://127.0.0.1:{redis_port}/0", mongo, secantus_uri(mongo_port))


@pytest.fixture
async def own_storage(servers: Servers, tmp_path: Path) -> AsyncIterator[Storage]:
    async with open_storage(
        mongodb_uri=servers.mongo_uri,
        redis_url=servers.redis_url,
        data_dir=tmp_path,
        db_name=f"outage_{uuid.uuid4().hex[:8]}",
    ) as opened:
        yield opened


@pytest.fixture
async def app(
    tg: FakeTelegram, own_storage: Storage, clock: ManualClock, portal_url: str
) -> AsyncIterator[BotApp]:
    async with product_bot(tg, own_storage, refportal_system(portal_url), clock=clock) as running:
        yield running


@pytest.mark.parametrize("down", ["redis", "secantus"])
async def test_storage_down_ten_seconds_mid_run_the_run_finishes_by_itself(
    down: str,
    app: BotApp,
    tg: FakeTelegram,
    own_storage: Storage,
    servers: Servers,
    portal_url: str,
) -> None:
    await set_quirks(portal_url, latency_ms=150)
    user = tg.user(1, "Анна", language_code="ru")
    await user.send(COMMAND)

    async def found() -> bool:
        runs = await own_storage.runs.recent_for_chat(1, limit=1)
        return bool(runs) and "find" in runs[0].done_steps()

    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not await found():
        assert loop.time() < deadline, "the booking did not get past finding rooms"
        await asyncio.sleep(0.02)
    server = servers.by_name[down]
    server.stop()  # booking goes on at the portal; its checkpoint finds storage gone
    await asyncio.sleep(OUTAGE)
    # Down until the run has met the outage too: on a busy machine the booking step can
    # outlast OUTAGE, and a run that touches no storage while it is down sees none.
    await user.wait_for_message(lambda m: m.text == NOTICE, timeout=WAIT)
    server.start()

    done = await user.wait_for_message(lambda m: "Забронированы" in (m.text or ""), timeout=WAIT)
    texts = [m.text or "" for m in user.messages]
    assert texts.count(NOTICE) == 1, texts
    assert sum("Забронированы" in t for t in texts) == 1, texts
    assert texts.index(NOTICE) < texts.index(done.text or "")
    assert not any("Redis" in t or "MongoDB" in t or "REDIS_URL" in t for t in texts), texts
    booked = await portal_bookings(portal_url, user="club")
    numbers = sorted(int(b["room_number"]) for b in booked)
    assert len(numbers) == 3 and numbers == list(range(numbers[0], numbers[0] + 3))
