"""A run is executed by one process: a core starting while another live process executes
a run (the MCP server started beside the bot) leaves that run to it, and resumes it once
that process is dead (on this machine: known at once from its pid)."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.commands import Command
from core.output import Done
from core.store import RunStatus
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from storage.liveness import ProcessIdentity
from tests.core.conftest import CoreFactory
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink


@pytest.fixture
def other_process() -> Iterator[tuple[subprocess.Popen[bytes], ProcessIdentity]]:
    """A live process on this machine, and the identity it would have as a clubman."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    stat = (Path("/proc") / str(child.pid) / "stat").read_text().rsplit(")", 1)[1]
    identity = dataclasses.replace(
        ProcessIdentity.current(), pid=child.pid, started=stat.split()[19]
    )
    try:
        yield child, identity
    finally:
        child.kill()
        child.wait()


async def test_a_run_another_live_process_executes_is_left_to_it_until_it_dies(
    make_core: CoreFactory,
    sink: CollectingSink,
    storage: Storage,
    other_process: tuple[subprocess.Popen[bytes], ProcessIdentity],
) -> None:
    child, other = other_process
    first = TrackedScenario()
    first.block_at = "finish"
    async with make_core(first, HelpScenario(), UnknownScenario()) as running:
        await running.handle(
            Command(chat_id=100, user_id=100, text="забронируй аудиторию завтра с 10 до 12")
        )
        await asyncio.wait_for(first.blocked.wait(), 10)
        (run,) = await storage.runs.with_status(RunStatus.RUNNING)
        assert run.runner == storage.locks.holder  # who executes it is recorded
    # As if the other process had been executing it all along, its heartbeat fresh:
    run.runner = str(other)
    await storage.runs.save(run)
    await storage.redis.set(other.liveness_key, b"1", px=60_000)

    beside = TrackedScenario()
    async with make_core(beside, HelpScenario(), UnknownScenario()) as starting:
        await starting.runner.wait_idle()
    assert beside.executed == []  # left to its live process
    still = await storage.runs.get(run.short_id)
    assert still is not None and still.status is RunStatus.RUNNING

    child.kill()
    child.wait()
    after = TrackedScenario()
    async with make_core(after, HelpScenario(), UnknownScenario()) as restarted:
        await sink.wait_for(Done)
        await restarted.runner.wait_idle()
    assert after.executed == ["finish"]  # its process died: resumed where it was
