"""Replies the user must receive (a run's question, its final answer), sent from storage:
a transactional outbox.

The runner writes the reply into the run (``ScenarioRun.reply``, state ``OWED``) in the
same save as the state change that owes it, then hands it to the view here with a
receipt. Right before the message leaves, the reply moves ``OWED → ATTEMPTED`` in one
conditional write (naming this process as its sender), so of two senders (this process
and a sweep, or two processes) only one sends; once the messenger has it, ``→ SENT``
with its message id. Whatever is still ``OWED`` after a crash, or because storage was
down at the moment of sending, is sent by ``sweep``: at start-up and every few seconds.

A reply left ``ATTEMPTED`` by a sender that died (between handing it over and hearing
back) is never sent again: Telegram has no idempotency key and nothing tells us whether
it arrived, and a second copy, with a second notification, could not be taken back.
It is shown instead by editing the run's progress message (the view reports that
message's id when it sends it; ``show_progress``) into the reply, then ``→ SHOWN``. An
edit notifies nobody and is idempotent, so a sweep that dies half-way simply edits
again. If the message never arrived, the user reads the answer exactly once, where the
progress was; if it did arrive, it is read a second time in that earlier message, with
no second notification (nothing tells the two cases apart). A question is shown the same
way, with its buttons, while its run still waits on it: unseen, it would hold the run
until it expires, and its buttons name the run and the question's number, so they work
from either message and a second tap is an old question's. With no progress message to
edit (none was shown, or the view shows none), the reply stays unsent (``UNCONFIRMED``,
logged once); what was booked stays visible in /bookings.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

import structlog

from core.commands import as_lang
from core.errors import StorageError
from core.output import Done, Failed, Option, Output, OutputSink, Progress, Question, Reply
from core.store import Locks, OwedReply, ReplyKind, ReplyState, RunStore, ScenarioRun

__all__ = ["Replies", "question_output"]

log = structlog.get_logger("clubman.replies")


def question_output(run: ScenarioRun) -> Question:
    """The run's pending question as the views show it."""
    assert run.question is not None
    return Question(
        chat_id=run.chat_id,
        run_id=run.short_id,
        seq=run.question.seq,
        key=run.question.key,
        text=run.question.text,
        options=[Option(id=o.id, label=o.label) for o in run.question.options],
        allow_free_text=run.question.allow_free_text,
        lang=as_lang(run.lang),
    )


def _still_owed(run: ScenarioRun, reply: OwedReply) -> bool:
    """A question is owed only while the run still waits on it (not answered, cancelled
    or expired before it went out)."""
    if reply.kind is not ReplyKind.QUESTION:
        return True
    return run.status.awaiting_answer and run.question is not None


class _Receipt:
    def __init__(self, replies: Replies, run: ScenarioRun, reply: OwedReply) -> None:
        self._replies = replies
        self._run = run
        self._reply = reply

    async def attempting(self) -> bool:
        runs, key = self._replies.runs, (self._run.short_id, self._reply.seq)
        sender = self._replies.holder
        try:
            taken = await runs.mark_reply(
                *key, was=ReplyState.OWED, now=ReplyState.ATTEMPTED, message_id=None, sender=sender
            )
        except StorageError:
            log.warning("reply.postponed", run_id=key[0], seq=key[1])  # the sweep sends it
            taken = False
        if taken:
            # The run object in memory too: a later save of it must not make it owed again.
            self._reply.state, self._reply.sender = ReplyState.ATTEMPTED, sender
        else:
            self._replies.in_flight.discard(key)
        return taken

    async def sent(self, message_id: int | None) -> None:
        key = (self._run.short_id, self._reply.seq)
        self._reply.state, self._reply.message_id = ReplyState.SENT, message_id
        await self._replies.record(key, ReplyState.SENT, message_id)


class _Shown:
    """The receipt of a reply shown by editing the progress message: nothing to claim,
    the edit is idempotent."""

    def __init__(self, replies: Replies, run: ScenarioRun, reply: OwedReply) -> None:
        self._replies = replies
        self._key = (run.short_id, reply.seq)
        self._message_id = run.progress_message

    async def attempting(self) -> bool:
        return True

    async def sent(self, message_id: int | None) -> None:
        await self._replies.record(self._key, ReplyState.SHOWN, self._message_id)


class _ProgressShown:
    """Given with a run's progress: the view reports the message that shows it."""

    def __init__(self, runs: RunStore, run: ScenarioRun) -> None:
        self._runs = runs
        self._run = run

    async def attempting(self) -> bool:
        return True

    async def sent(self, message_id: int | None) -> None:
        if message_id is None or message_id == self._run.progress_message:
            return
        # The run object in memory too: the runner's next save of it keeps the id.
        self._run.progress_message = message_id
        try:
            await self._runs.note_progress_message(self._run.short_id, message_id)
        except StorageError:  # the next checkpoint of the run stores it
            log.warning("progress.unrecorded", run_id=self._run.short_id)


class Replies:
    def __init__(
        self, runs: RunStore, sink: OutputSink, *, locks: Locks, sweep_every: float = 5.0
    ) -> None:
        self.runs = runs
        self._sink = sink
        self._locks = locks
        self._sweep_every = sweep_every
        self.in_flight: set[tuple[str, int]] = set()  # handed to the view by this process
        # Sent or shown, but storage failed to record it: written again by the sweep (left
        # ATTEMPTED, a restart would show it a second time).
        self._unrecorded: dict[tuple[str, int], tuple[ReplyState, int | None]] = {}

    @property
    def holder(self) -> str:
        return self._locks.holder

    async def show_progress(self, run: ScenarioRun, progress: Progress) -> None:
        """Hand the run's progress to the view, which reports the message showing it."""
        await self._sink.deliver(progress, _ProgressShown(self.runs, run))

    async def record(self, key: tuple[str, int], state: ReplyState, message_id: int | None) -> None:
        """The reply ``key`` (ATTEMPTED) went out as ``state``: record it, or retry later."""
        self.in_flight.discard(key)
        try:
            await self.runs.mark_reply(
                *key, was=ReplyState.ATTEMPTED, now=state, message_id=message_id
            )
        except StorageError:
            log.warning("reply.unrecorded", run_id=key[0], seq=key[1], state=state)
            self._unrecorded[key] = (state, message_id)
        else:
            self._unrecorded.pop(key, None)

    @staticmethod
    def owe(
        run: ScenarioRun, kind: ReplyKind, text: str, *, now: datetime, calendar: bool = False
    ) -> None:
        """Make ``kind`` the reply ``run`` owes; the caller's next save stores it."""
        seq = run.reply.seq + 1 if run.reply is not None else 1
        run.reply = OwedReply(seq=seq, kind=kind, text=text, calendar=calendar, changed_at=now)

    async def send(self, run: ScenarioRun) -> bool:
        """Hand the run's owed reply to the view (it sends it unless someone else has);
        False if there was nothing to hand over (not owed, already in flight here, or a
        question no longer waited on, which is withdrawn)."""
        reply = run.reply
        if reply is None or reply.state is not ReplyState.OWED:
            return False
        key = (run.short_id, reply.seq)
        if key in self.in_flight:
            return False
        if not _still_owed(run, reply):
            withdrawn = ReplyState.WITHDRAWN
            await self.runs.mark_reply(
                run.short_id, reply.seq, was=ReplyState.OWED, now=withdrawn, message_id=None
            )
            return False
        self.in_flight.add(key)
        await self._sink.deliver(self._output(run, reply), _Receipt(self, run, reply))
        return True

    async def sweep(self) -> int:
        """Send every reply still owed, show those whose sender died while sending; how
        many runs owed one."""
        for key, (state, message_id) in list(self._unrecorded.items()):
            await self.record(key, state, message_id)
        owing = await self.runs.owing_replies()
        for run in owing:
            if await self.send(run):
                log.info("reply.resent", run_id=run.short_id, kind=run.reply and run.reply.kind)
        for run in await self.runs.attempted_replies():
            await self._recover(run)
        return len(owing)

    async def _recover(self, run: ScenarioRun) -> None:
        """Show a reply its dead sender left ATTEMPTED by editing the progress message."""
        reply = run.reply
        if reply is None or reply.state is not ReplyState.ATTEMPTED:
            return
        key = (run.short_id, reply.seq)
        if key in self.in_flight or key in self._unrecorded:
            return
        # No sender: written before senders were named, by a process long gone.
        if reply.sender is not None and await self._locks.alive(reply.sender):
            return  # going out now, or the messenger gave up: its process lives
        if run.progress_message is None or not _still_owed(run, reply):
            unconfirmed = ReplyState.UNCONFIRMED
            await self.runs.mark_reply(
                *key, was=ReplyState.ATTEMPTED, now=unconfirmed, message_id=None
            )
            log.warning("reply.unconfirmed", run_id=key[0], seq=key[1], kind=reply.kind)
            return
        self.in_flight.add(key)
        output = self._output(run, reply).model_copy(update={"in_place_of": run.progress_message})
        await self._sink.deliver(output, _Shown(self, run, reply))
        log.info("reply.shown_in_place", run_id=key[0], seq=key[1], kind=reply.kind)

    async def sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except StorageError as exc:
                log.warning("reply.sweep_failed", error=type(exc).__name__)
            await asyncio.sleep(self._sweep_every)

    @staticmethod
    def _output(run: ScenarioRun, reply: OwedReply) -> Output:
        lang = as_lang(run.lang)
        if reply.kind is ReplyKind.DONE:
            return Done(
                chat_id=run.chat_id,
                run_id=run.short_id,
                text=reply.text,
                lang=lang,
                calendar=reply.calendar,
            )
        if reply.kind is ReplyKind.ENDED:
            return Reply(chat_id=run.chat_id, run_id=run.short_id, text=reply.text, lang=lang)
        if reply.kind is ReplyKind.FAILED:
            return Failed(
                chat_id=run.chat_id,
                run_id=run.short_id,
                text=reply.text,
                lang=lang,
                screenshot=run.failure_screenshot,
            )
        return question_output(run)
