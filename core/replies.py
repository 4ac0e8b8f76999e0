"""Replies the user must receive (a run's question, its final answer), sent from storage:
a transactional outbox.

The runner writes the reply into the run (``ScenarioRun.reply``, state ``OWED``) in the
same save as the state change that owes it, then hands it to the view here with a
receipt. Right before the message leaves, the reply moves ``OWED → ATTEMPTED`` in one
conditional write, so of two senders (this process and a sweep, or two processes) only
one sends; once the messenger has it, ``→ SENT`` with its message id. Whatever is still
``OWED`` after a crash, or because storage was down at the moment of sending, is sent
by ``sweep``: at start-up and every few seconds after.

A reply left ``ATTEMPTED`` (the process died between handing it over and hearing back,
or the messenger gave up) is never sent again. Telegram has no idempotency key and
nothing tells us whether that message arrived; it may well have, and a second copy
could not be taken back, so the window in which a resend could be a duplicate never
closes. What was booked stays visible in /bookings.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

import structlog

from core.commands import as_lang
from core.errors import StorageError
from core.output import Done, Failed, Option, Output, OutputSink, Question, Reply
from core.store import OwedReply, ReplyKind, ReplyState, RunStore, ScenarioRun

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
        try:
            taken = await runs.mark_reply(
                key[0], key[1], was=ReplyState.OWED, now=ReplyState.ATTEMPTED, message_id=None
            )
        except StorageError:
            log.warning("reply.postponed", run_id=key[0], seq=key[1])  # the sweep sends it
            taken = False
        if taken:
            # The run object in memory too: a later save of it must not make it owed again.
            self._reply.state = ReplyState.ATTEMPTED
        else:
            self._replies.in_flight.discard(key)
        return taken

    async def sent(self, message_id: int | None) -> None:
        key = (self._run.short_id, self._reply.seq)
        self._replies.in_flight.discard(key)
        self._reply.state, self._reply.message_id = ReplyState.SENT, message_id
        try:
            await self._replies.runs.mark_reply(
                key[0], key[1], was=ReplyState.ATTEMPTED, now=ReplyState.SENT, message_id=message_id
            )
        except StorageError:  # it did arrive; left ATTEMPTED it is not sent again either
            log.warning("reply.sent_unrecorded", run_id=key[0], seq=key[1])


class Replies:
    def __init__(self, runs: RunStore, sink: OutputSink, *, sweep_every: float = 5.0) -> None:
        self.runs = runs
        self._sink = sink
        self._sweep_every = sweep_every
        self.in_flight: set[tuple[str, int]] = set()  # handed to the view by this process

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
        """Send every reply still owed; how many runs owed one."""
        owing = await self.runs.owing_replies()
        for run in owing:
            if await self.send(run):
                log.info("reply.resent", run_id=run.short_id, kind=run.reply and run.reply.kind)
        return len(owing)

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
