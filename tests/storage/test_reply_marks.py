"""The run's field writes the replies' outbox makes (``core.replies``): the progress
message noted, a reply marked with its sender, the replies still going out listed. Each
is one conditional write that leaves the run's revision alone."""

from __future__ import annotations

from core.store import OwedReply, ReplyKind, ReplyState, RunStatus, ScenarioRun
from storage import Storage


async def _done_run(storage: Storage, state: ReplyState) -> ScenarioRun:
    run = await storage.runs.create(
        ScenarioRun(chat_id=5, user_id=5, scenario="book_rooms", status=RunStatus.DONE)
    )
    run.reply = OwedReply(seq=1, kind=ReplyKind.DONE, text="Забронирована 101", state=state)
    return await storage.runs.save(run)


async def test_the_progress_message_is_noted_once_and_a_later_save_is_not_refused(
    storage: Storage,
) -> None:
    run = await _done_run(storage, ReplyState.SENT)
    assert await storage.runs.note_progress_message(run.short_id, 41)
    assert not await storage.runs.note_progress_message(run.short_id, 41)  # noted already
    assert await storage.runs.note_progress_message(run.short_id, 42)  # a newer one
    assert not await storage.runs.note_progress_message("no-such-run", 41)
    stored = await storage.runs.get(run.short_id)
    assert stored is not None and stored.progress_message == 42
    run.progress_message = 42  # as the core does on the run it holds
    await storage.runs.save(run)  # the revision it read is still the stored one
    again = await storage.runs.get(run.short_id)
    assert again is not None and again.progress_message == 42


async def test_a_reply_taken_names_its_sender_and_is_listed_until_settled(
    storage: Storage,
) -> None:
    run = await _done_run(storage, ReplyState.OWED)
    other = await _done_run(storage, ReplyState.OWED)
    taken = await storage.runs.mark_reply(
        run.short_id, 1, was=ReplyState.OWED, now=ReplyState.ATTEMPTED, message_id=None,
        sender="host:1:2:space",
    )  # fmt: skip
    assert taken
    attempted = await storage.runs.attempted_replies()
    assert [r.short_id for r in attempted] == [run.short_id]
    assert attempted[0].reply is not None and attempted[0].reply.sender == "host:1:2:space"
    assert [r.short_id for r in await storage.runs.owing_replies()] == [other.short_id]

    shown = ReplyState.SHOWN
    assert await storage.runs.mark_reply(
        run.short_id, 1, was=ReplyState.ATTEMPTED, now=shown, message_id=41
    )
    assert await storage.runs.attempted_replies() == []
    stored = await storage.runs.get(run.short_id)
    assert stored is not None and stored.reply is not None
    assert (stored.reply.state, stored.reply.message_id) == (shown, 41)
    assert stored.reply.sender == "host:1:2:space"
