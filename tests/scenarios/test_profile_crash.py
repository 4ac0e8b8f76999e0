"""Crash safety on a site known only by its profile: the bot process (the app's own core
with ``PORTAL__KIND=profile`` and ``profiles/legacy.yaml``) is SIGKILLed mid-booking on
the legacy-style site; a new process resumes the run and the site ends with exactly the
three bookings asked for, none twice, and one final answer."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from core.store import RunStatus
from storage import Storage
from storage.process import die_with_parent, free_port
from tests.support.booking_child import ROOT, kill_when, spawn

COMMAND = "забронируй 3 аудитории рядом в главном послезавтра с 18 до 20"
PROFILE = ROOT / "profiles" / "legacy.yaml"


@pytest.fixture(scope="module")
def legacy_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The legacy-style site in its own process, so it outlives the bot processes we kill."""
    port = free_port()
    log = (tmp_path_factory.mktemp("legacy") / "legacy.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "portal.legacy", "--port", str(port), "--test-api"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent,
    )  # fmt: skip
    try:
        for _ in range(400):
            assert proc.poll() is None, "the legacy site exited"
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


async def _club_bookings(url: str) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/bookings") as got:
        rows: list[dict[str, Any]] = await got.json()
    return [r for r in rows if r["user"] == "club" and r["status"] == "active"]


def _child(mongo: str, redis: str, db: str, url: str, mode: str) -> subprocess.Popen[bytes]:
    env = {
        "PORTAL__KIND": "profile", "PORTAL__PROFILE": str(PROFILE), "PORTAL__URL": url,
        "PORTAL__USERNAME": "club", "PORTAL__PASSWORD": "club-demo",
    }  # fmt: skip
    return spawn(mongo, redis, db, mode, COMMAND, env=env)


@pytest.mark.parametrize("kill_at", ["login", "booked:1", "booked:2"])
async def test_killed_mid_booking_books_exactly_three(
    kill_at: str,
    legacy_url: str,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
) -> None:
    storage, db = shared
    async with aiohttp.ClientSession() as http, http.post(f"{legacy_url}/_test/reset") as got:
        assert got.status == 200

    async def reached() -> bool:
        if kill_at.startswith("booked:"):
            return len(await _club_bookings(legacy_url)) >= int(kill_at[7:])
        runs = await storage.runs.recent_for_chat(100, limit=1)
        return bool(runs) and kill_at in runs[0].done_steps()

    first = _child(secantus_uri, redis_url, db, legacy_url, "start")
    await kill_when(reached, first, timeout=90)
    assert first.stdout is not None
    first_output = first.stdout.read()
    runs = await storage.runs.recent_for_chat(100, limit=1)
    assert runs and runs[0].status is RunStatus.RUNNING  # killed mid-run

    second = _child(secantus_uri, redis_url, db, legacy_url, "resume")
    try:
        output, _ = await asyncio.to_thread(second.communicate, timeout=120)
    finally:
        second.kill()
    assert second.returncode == 0, output.decode()
    booked = await _club_bookings(legacy_url)
    numbers = sorted(int(b["room_number"]) for b in booked)
    assert len(numbers) == 3 and numbers == list(range(numbers[0], numbers[0] + 3)), booked
    run = (await storage.runs.recent_for_chat(100, limit=1))[0]
    assert run.status is RunStatus.DONE
    answers = [
        line for line in (first_output + output).decode().splitlines() if line.startswith("done ")
    ]
    assert len(answers) == 1, answers  # exactly one final answer
