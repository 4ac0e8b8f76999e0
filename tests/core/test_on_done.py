"""A finished run's ``on_done`` (the booking job plans its reminder there) is second to
the run's answer: its failure is logged and the run is saved done all the same."""

from __future__ import annotations

from typing import Any

from core.commands import Command
from core.errors import StorageError
from core.output import Done
from core.scenario import StepContext
from core.store import RunStatus, ScenarioRun
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from tests.core.conftest import CoreFactory
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink

USER = 7


class _LeavesTrouble(TrackedScenario):
    """Books (in a test's way), then fails at what it leaves behind (as a reminder's plan)."""

    async def on_done(self, run: ScenarioRun, ctx: StepContext[Any]) -> None:
        raise StorageError("the reminders collection refused the write")


async def test_what_a_run_fails_to_leave_behind_does_not_keep_it_from_finishing(
    make_core: CoreFactory, storage: Storage, sink: CollectingSink
) -> None:
    async with make_core(_LeavesTrouble(), HelpScenario(), UnknownScenario()) as core:
        await core.handle(
            Command(chat_id=USER, user_id=USER, text="забронируй аудиторию завтра с 10 до 12")
        )
        done = await sink.wait_for(Done)
    run = await storage.runs.get(done.run_id)
    assert run is not None and run.status is RunStatus.DONE
    assert await storage.reminders.pending() == []
