"""A run executes in one process at a time: a core starting while another is in the
middle of a run (the MCP server launched beside the bot) leaves that run to it."""

from __future__ import annotations

import asyncio

from core.commands import Command
from core.output import Done
from core.store import RunStatus
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from tests.core.conftest import CoreFactory
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink


async def test_a_second_core_does_not_resume_a_run_the_first_is_running(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    first, second = TrackedScenario(), TrackedScenario()
    first.block_at = "finish"
    async with make_core(first, HelpScenario(), UnknownScenario()) as running:
        await running.handle(
            Command(chat_id=100, user_id=100, text="забронируй аудиторию завтра с 10 до 12")
        )
        await asyncio.wait_for(first.blocked.wait(), 10)
        async with make_core(second, HelpScenario(), UnknownScenario()) as starting:
            assert len(await storage.runs.with_status(RunStatus.RUNNING)) == 1
            await starting.runner.wait_idle()  # its resumed task found the lease held
            first.unblock.set()
            await sink.wait_for(Done)
    assert first.executed == ["prepare", "confirm?", "finish"]
    assert second.executed == []
