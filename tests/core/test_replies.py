"""Durable replies (core.replies) on real storage: a question or final answer is stored
with the run's state change and sent from there, once: after a crash before it went out
it is sent on start-up; after a crash while it was going out it is not sent again but
shown by editing the run's progress message, when there is one; two senders never both
send it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from app.engine import build_core
from core.clock import ManualClock
from core.commands import Command
from core.dispatcher import ChatDispatcher
from core.output import Done, Output, Progress, Question, Receipt
from core.replies import Replies
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.store import (
    OptionRecord,
    OwedReply,
    PendingQuestion,
    ReplyKind,
    ReplyState,
    RunStatus,
    ScenarioRun,
)
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink

COMMAND = Command(chat_id=100, user_id=100, text="забронируй аудиторию завтра с 10 до 12")


class DyingSink(CollectingSink):
    """A view whose process dies when the final answer is handed to it: ``before`` the
    receipt is asked (the reply never left) or ``after`` it (it left, unrecorded)."""

    def __init__(self, dies: str) -> None:
        super().__init__()
        self.dies = dies
        self.died = asyncio.Event()

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if not isinstance(output, Done):
            await super().deliver(output, receipt)
            return
        if self.dies == "after" and receipt is not None:
            assert await receipt.attempting()
            await super().deliver(output)  # it reached the user …
        self.died.set()
        await asyncio.Event().wait()  # … and the process is gone before anything else


def core_on(
    storage: Storage, sink: CollectingSink, clock: ManualClock
) -> AbstractAsyncContextManager[ChatDispatcher]:
    return build_core(
        load_settings(),
        storage,
        sink,
        catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
        scenarios=[TrackedScenario(), HelpScenario(), UnknownScenario()],
        clock=clock,
    )


@asynccontextmanager
async def died_at_the_answer(
    storage: Storage, clock: ManualClock, dies: str
) -> AsyncIterator[DyingSink]:
    sink = DyingSink(dies)
    async with core_on(storage, sink, clock) as core:
        await core.handle(COMMAND)
        await asyncio.wait_for(sink.died.wait(), 10)
    yield sink


async def reply_reaches(storage: Storage, state: ReplyState) -> None:
    for _ in range(500):
        reply = (await the_run(storage)).reply
        if reply is not None and reply.state is state:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the reply never became {state}")


async def the_run(storage: Storage) -> ScenarioRun:
    runs = await storage.runs.recent_for_chat(100, limit=1)
    assert runs
    return runs[0]


async def test_the_final_answer_is_stored_with_the_done_state_and_marked_sent(
    storage: Storage, clock: ManualClock
) -> None:
    sink = CollectingSink()
    async with core_on(storage, sink, clock) as core:
        await core.handle(COMMAND)
        done = await sink.wait_for(Done)
        await core.runner.wait_idle()
    run = await the_run(storage)
    assert run.status is RunStatus.DONE and run.reply is not None
    assert (run.reply.kind, run.reply.text) == (ReplyKind.DONE, done.text)
    assert run.reply.state is ReplyState.SENT


async def test_an_answer_that_never_left_is_sent_once_after_a_restart(
    storage: Storage, clock: ManualClock
) -> None:
    async with died_at_the_answer(storage, clock, "before") as first:
        assert not first.of_kind(Done)
    run = await the_run(storage)
    assert run.status is RunStatus.DONE
    assert run.reply is not None and run.reply.state is ReplyState.OWED

    second = CollectingSink()
    async with core_on(storage, second, clock) as core:
        done = await second.wait_for(Done)
        # The sweep shows it, then records it sent: wait for the record before stopping.
        await reply_reaches(storage, ReplyState.SENT)
        assert await core.runner.replies.sweep() == 0  # nothing owed any more
    assert done.text == run.reply.text and len(second.of_kind(Done)) == 1


async def test_an_answer_that_may_have_arrived_is_not_sent_again(
    storage: Storage, clock: ManualClock
) -> None:
    async with died_at_the_answer(storage, clock, "after") as first:
        assert len(first.of_kind(Done)) == 1
    run = await the_run(storage)
    assert run.reply is not None and run.reply.state is ReplyState.ATTEMPTED

    second = CollectingSink()
    async with core_on(storage, second, clock) as core:
        assert await core.runner.replies.sweep() == 0
    assert not second.of_kind(Done)


async def test_of_two_senders_only_one_sends(storage: Storage) -> None:
    run = await storage.runs.create(
        ScenarioRun(chat_id=7, user_id=7, scenario="book_rooms", status=RunStatus.DONE)
    )
    Replies.owe(run, ReplyKind.DONE, "Забронированы 101, 102", now=run.created_at)
    await storage.runs.save(run)
    sinks = [CollectingSink(), CollectingSink()]
    senders = [Replies(storage.runs, sink, locks=storage.locks) for sink in sinks]
    for _ in range(3):
        await asyncio.gather(*(sender.sweep() for sender in senders))
    assert sum(len(sink.of_kind(Done)) for sink in sinks) == 1


async def test_a_question_no_longer_waited_on_is_withdrawn_not_sent(storage: Storage) -> None:
    run = await storage.runs.create(
        ScenarioRun(chat_id=8, user_id=8, scenario="book_rooms", status=RunStatus.RUNNING)
    )
    run.reply = OwedReply(seq=1, kind=ReplyKind.QUESTION, text="Подтвердить?")
    await storage.runs.save(run)  # e.g. answered, then the process died before sending
    sink = CollectingSink()
    assert await Replies(storage.runs, sink, locks=storage.locks).sweep() == 1
    assert sink.outputs == []
    after = await storage.runs.get(run.short_id)
    assert after is not None and after.reply is not None
    assert after.reply.state is ReplyState.WITHDRAWN


async def _left_attempted(
    storage: Storage,
    *,
    sender: str,
    progress: int | None,
    kind: ReplyKind = ReplyKind.DONE,
    status: RunStatus = RunStatus.DONE,
) -> ScenarioRun:
    """A run whose reply ``sender`` took and never recorded sent."""
    run = await storage.runs.create(
        ScenarioRun(chat_id=9, user_id=9, scenario="book_rooms", status=status)
    )
    run.progress_message = progress
    run.reply = OwedReply(
        seq=1, kind=kind, text="Забронирована 101", state=ReplyState.ATTEMPTED, sender=sender
    )
    if kind is ReplyKind.QUESTION:
        run.question = PendingQuestion(
            seq=1, key="go", text=run.reply.text, options=[OptionRecord(id="y", label="Да")]
        )
    return await storage.runs.save(run)


async def test_an_answer_whose_sender_died_sending_is_shown_in_the_progress_message(
    storage: Storage,
) -> None:
    run = await _left_attempted(storage, sender="a-dead-process", progress=41)
    sink = CollectingSink()
    replies = Replies(storage.runs, sink, locks=storage.locks)
    await replies.sweep()
    assert [(o.text, o.in_place_of) for o in sink.of_kind(Done)] == [("Забронирована 101", 41)]
    after = await storage.runs.get(run.short_id)
    assert after is not None and after.reply is not None
    assert (after.reply.state, after.reply.message_id) == (ReplyState.SHOWN, 41)
    await replies.sweep()
    assert len(sink.outputs) == 1  # shown once


async def test_a_reply_its_living_sender_is_sending_is_left_to_it(storage: Storage) -> None:
    run = await _left_attempted(storage, sender=storage.locks.holder, progress=41)
    sink = CollectingSink()
    await Replies(storage.runs, sink, locks=storage.locks).sweep()
    assert sink.outputs == []
    after = await storage.runs.get(run.short_id)
    assert after is not None and after.reply is not None
    assert after.reply.state is ReplyState.ATTEMPTED


async def test_with_no_progress_message_a_reply_that_may_have_arrived_stays_unsent(
    storage: Storage,
) -> None:
    run = await _left_attempted(storage, sender="a-dead-process", progress=None)
    sink = CollectingSink()
    await Replies(storage.runs, sink, locks=storage.locks).sweep()
    assert sink.outputs == []
    after = await storage.runs.get(run.short_id)
    assert after is not None and after.reply is not None
    assert after.reply.state is ReplyState.UNCONFIRMED


async def test_a_question_still_waited_on_is_shown_in_place_with_its_buttons(
    storage: Storage,
) -> None:
    await _left_attempted(
        storage, sender="a-dead-process", progress=41, kind=ReplyKind.QUESTION,
        status=RunStatus.WAITING,
    )  # fmt: skip
    sink = CollectingSink()
    await Replies(storage.runs, sink, locks=storage.locks).sweep()
    (question,) = sink.of_kind(Question)
    assert (question.in_place_of, [o.label for o in question.options]) == (41, ["Да"])


class ProgressShowingSink(CollectingSink):
    """Reports message 77 as the one showing each run's progress, as the Telegram view
    does for a run's first progress message."""

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if isinstance(output, Progress) and receipt is not None:
            await receipt.sent(77)
            receipt = None
        await super().deliver(output, receipt)


async def test_the_message_showing_a_runs_progress_is_stored_with_the_run(
    storage: Storage, clock: ManualClock
) -> None:
    sink = ProgressShowingSink()
    async with core_on(storage, sink, clock) as core:
        await core.handle(COMMAND)
        await sink.wait_for(Done)
        await core.runner.wait_idle()
    assert (await the_run(storage)).progress_message == 77
